import { data, Form, Link } from "react-router";
import { useSchemaForm } from "~/components/forms";
import { AuthAlert, AuthCard, AuthInput, authButtonClass } from "~/components/auth-card";
import { PASSWORD_MIN_LENGTH } from "~/lib/auth-limits";
import { ResetPasswordSchema } from "~/lib/auth-schemas";
import { parseSubmission, refusal } from "~/lib/form-submission";
import { FORGOT_PATH } from "~/lib/auth-paths";
import { RESET_LINK_INVALID, resetLinkEmail, resetPassword } from "~/server/auth/password-reset.server";
import { redirectSignedIn } from "~/server/auth/token-handoff.server";
import { userFacingError } from "~/server/http/errors.server";
import { requestInfoContext } from "~/server/request-context.server";
import { toastHeader } from "~/server/toast.server";
import type { Route } from "./+types/reset-password";

// The mailed reset link's page: a new password, then signed in (every other session ended).

export function meta() {
  return [{ title: "Choose a new password · Google Ads AI Manager" }];
}

export async function loader({ url }: Route.LoaderArgs) {
  const token = url.searchParams.get("token") ?? "";
  const email = await resetLinkEmail(token);
  return data(email ? { token, email, invalid: null } : { token: "", email: null, invalid: RESET_LINK_INVALID }, {
    headers: { "Cache-Control": "no-store" },
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const submission = parseSubmission(form, ResetPasswordSchema);
  try {
    const { session } = await resetPassword(form.get("token"), form.get("password"), request, context.get(requestInfoContext).clientIp);
    return await redirectSignedIn(request, session, [await toastHeader({ type: "success", message: PASSWORD_CHANGED_MESSAGE })]);
  } catch (error) {
    const failure = userFacingError(error);
    if (!failure) throw error;
    const result = refusal(submission, { formError: failure.detail, errors: failure.fieldErrors }, { hideFields: ["password"] });
    return data({ result }, { status: failure.status, headers: failure.headers });
  }
}

export const PASSWORD_CHANGED_MESSAGE = "Your password was changed and every other session was signed out.";

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useSchemaForm(ResetPasswordSchema, { id: "reset-password", lastResult: actionData?.result });
  const password = fields.password;
  const formError = !password.errors?.length ? (form.errors?.[0] ?? null) : null;
  return (
    <AuthCard title="Choose a new password">
      {loaderData.invalid ? (
        <>
          <AuthAlert message={loaderData.invalid} />
          <p className="mt-4 text-sm">
            <Link to={FORGOT_PATH} className="font-semibold text-blue-600 hover:underline">
              Ask for a new link
            </Link>
          </p>
        </>
      ) : (
        <>
          <p className="mt-2 text-gray-600">
            A new password for <strong>{loaderData.email}</strong>. Every device signed in to this account will be signed out.
          </p>
          <AuthAlert message={formError} />
          <Form method="post" id={form.id} onSubmit={form.onSubmit} className="mt-6 space-y-4" noValidate>
            <input type="hidden" name="token" value={loaderData.token} />
            <input type="email" name="username" autoComplete="username" value={loaderData.email ?? ""} readOnly hidden />
            <AuthInput field={password} label="New password" type="password" autoComplete="new-password" hint={`At least ${PASSWORD_MIN_LENGTH} characters`} />
            <button type="submit" className={authButtonClass}>
              Change password
            </button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}
