import { data } from "react-router";
import { z } from "zod";
import type { User } from "../db/schema";
import { DomainError } from "../domain-errors.server";
import { redirectWithToast } from "../toast.server";
import { AlertEmailMode, alertEmailMode, setAlertEmailMode } from "./alert-mail.server";
import { ALERT_RULES, AlertListQuery, listAlerts, listMutes, markAlertsRead, resolveAlert, setMute } from "./alert-inbox.server";

// The /alerts page: the list (a GET form's filters), and its plain forms.

export async function alertsPage(user: User, url: URL) {
  const parsed = AlertListQuery.safeParse(Object.fromEntries(url.searchParams));
  const query = parsed.success ? parsed.data : AlertListQuery.parse({});
  const [list, mutes, emailMode] = await Promise.all([listAlerts(user.id, query), listMutes(user.id), alertEmailMode(user.id)]);
  return { ...list, query, mutes, emailMode, ignored: !parsed.success };
}

const EMAIL_TOAST = { off: "No alert emails", immediate: "Alerts will be emailed at once", digest: "Alerts will be emailed once a day" } as const;

const AlertForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read-all") }),
  z.object({ intent: z.literal("email"), mode: AlertEmailMode }),
  z.object({ intent: z.literal("resolve"), alertId: z.string().min(1, "Choose an alert") }),
  z.object({
    intent: z.literal("mute"),
    customerId: z
      .string()
      .transform((s) => (s === "" ? null : s))
      .pipe(
        z
          .string()
          .regex(/^\d{10}$/, "Choose an account")
          .nullable(),
      ),
    rule: z
      .string()
      .transform((s) => (s === "" ? null : s))
      .pipe(z.enum(ALERT_RULES, { error: "Choose a rule" }).nullable()),
    muted: z.enum(["true", "false"]).transform((v) => v === "true"),
  }),
]);

export async function alertsAction(user: User, form: FormData, returnTo: string) {
  const parsed = AlertForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ error: parsed.error.issues[0].message }, { status: 400 });
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "email":
        await setAlertEmailMode(user.id, input.mode);
        return redirectWithToast(returnTo, { type: "success", message: EMAIL_TOAST[input.mode] });
      case "read-all": {
        const n = await markAlertsRead(user.id, "all");
        return redirectWithToast(returnTo, { type: "success", message: n ? `${n} alert${n === 1 ? "" : "s"} marked read` : "Nothing unread" });
      }
      case "resolve":
        await resolveAlert(user.id, input.alertId);
        return redirectWithToast(returnTo, { type: "success", message: "Alert resolved" });
      case "mute":
        if (input.customerId === null && input.rule === null) return data({ error: "Name an account, a rule, or both" }, { status: 400 });
        await setMute(user.id, { customerId: input.customerId, rule: input.rule, muted: input.muted });
        return redirectWithToast(returnTo, { type: "success", message: input.muted ? "Muted" : "Unmuted" });
    }
  } catch (error) {
    if (error instanceof DomainError) return data({ error: error.message }, { status: 400 });
    throw error;
  }
}
