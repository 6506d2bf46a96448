import { data } from "react-router";
import { z } from "zod";
import { listAccounts } from "../ads/accounts.server";
import type { User } from "../db/schema";
import { DomainError } from "../domain-errors.server";
import { redirectWithToast } from "../toast.server";
import { listWebhooks, removeWebhook, rotateWebhookSecret, setWebhook, webhookLog } from "./alert-webhook.server";

// /settings' "Alert webhooks" (issue 31 point 4): plain forms to set, re-key
// and remove an account's webhook, and the delivery log (the last attempts).

export const WEBHOOK_INTENTS = ["set-webhook", "remove-webhook", "rotate-webhook-secret"] as const;

export async function webhooksSection(user: User) {
  const [accounts, webhooks, log] = await Promise.all([listAccounts(user.id), listWebhooks(user.id), webhookLog(user.id)]);
  return {
    accounts: accounts.filter((a) => a.manager === 0).map((a) => ({ customerId: a.customer_id, name: a.name })),
    webhooks,
    log,
  };
}

export function isWebhookIntent(form: FormData) {
  return (WEBHOOK_INTENTS as readonly unknown[]).includes(form.get("intent"));
}

const CustomerId = z.string().regex(/^\d{10}$/, "Choose an account");
const WebhookForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("set-webhook"), customerId: CustomerId, url: z.string() }),
  z.object({ intent: z.literal("remove-webhook"), customerId: CustomerId }),
  z.object({ intent: z.literal("rotate-webhook-secret"), customerId: CustomerId }),
]);

export async function webhooksAction(user: User, form: FormData) {
  const parsed = WebhookForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ error: parsed.error.issues[0].message }, { status: 400 });
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "set-webhook":
        await setWebhook(user.id, input.customerId, input.url);
        return redirectWithToast("/settings", { type: "success", message: "Webhook saved: new alerts of this account will be sent to it" });
      case "remove-webhook":
        if (!(await removeWebhook(user.id, input.customerId))) return data({ error: "That account has no webhook" }, { status: 400 });
        return redirectWithToast("/settings", { type: "success", message: "Webhook removed" });
      case "rotate-webhook-secret":
        if (!(await rotateWebhookSecret(user.id, input.customerId))) return data({ error: "That account has no webhook" }, { status: 400 });
        return redirectWithToast("/settings", { type: "success", message: "New signing secret: the old one no longer verifies" });
    }
  } catch (error) {
    if (error instanceof DomainError) return data({ error: error.message }, { status: 400 });
    throw error;
  }
}
