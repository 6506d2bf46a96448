import { redirect } from "react-router";
import { z } from "zod";
import { appCookie } from "./http/app-cookie.server";

export const ToastSchema = z.object({
  type: z.enum(["success", "error", "blank"]).default("blank"),
  message: z.string().min(1).max(500),
});
export type Toast = z.infer<typeof ToastSchema>;

const toastCookie = appCookie("toast", { maxAge: 60 });

/** Carries a toast across a redirect (flash): shown once on the next page. */
export async function toastHeader(toast: Toast) {
  return toastCookie().serialize(ToastSchema.parse(toast));
}

export async function redirectWithToast(url: string, toast: Toast, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads the flash toast and the header that clears it. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const headers = new Headers();
  const raw = await toastCookie().parse(request.headers.get("Cookie"));
  if (raw === null || raw === undefined) return { toast: null, headers };
  headers.append("Set-Cookie", await toastCookie().serialize("", { maxAge: 0 }));
  const parsed = ToastSchema.safeParse(raw);
  return { toast: parsed.success ? parsed.data : null, headers };
}
