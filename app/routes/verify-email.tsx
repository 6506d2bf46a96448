import { data, Form } from "react-router";
import { CONFIRM_LINK_INVALID, confirmEmail } from "~/server/auth/credentials.server";
import { readVerificationToken } from "~/server/auth/email-verification.server";
import { userFacingError } from "~/server/http/errors.server";
import { toastHeader } from "~/server/toast.server";
import { redirectSignedIn } from "~/server/auth/token-handoff.server";
import { useSchemaForm } from "~/components/forms";
import { AuthAlert, AuthCard, AuthInput, authButtonClass } from "~/components/auth-card";
import { VerifyEmailSchema } from "~/lib/auth-schemas";
import { parseSubmission, refusal } from "~/lib/form-submission";
import type { Route } from "./+types/verify-email";
import { requestInfoContext } from "~/server/request-context.server";

// The address-confirmation link's page: the account's password proves that the
// person following the link is the one who registered (issue 9 point 1).

export function meta() {
  return [{ title: "Confirm your email · Google Ads AI Manager" }];
}

export async function loader({ url }: Route.LoaderArgs) {
  const token = url.searchParams.get("token") ?? "";
  const claim = readVerificationToken(token);
  return data(claim ? { token, email: claim.email, invalid: null } : { token: "", email: null, invalid: CONFIRM_LINK_INVALID }, {
    headers: { "Cache-Control": "no-store" },
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const submission = parseSubmission(form, VerifyEmailSchema);
  try {
    // The service parses the password with the same schema, after counting the attempt.
    const { session } = await confirmEmail(form.get("token"), form.get("password"), request, context.get(requestInfoContext).clientIp);
    return await redirectSignedIn(request, session, [await toastHeader({ type: "success", message: CONFIRMED_MESSAGE })]);
  } catch (error) {
    const failure = userFacingError(error);
    if (!failure) throw error;
    const result = refusal(submission, { formError: failure.detail, errors: failure.fieldErrors }, { hideFields: ["password"] });
    return data({ result }, { status: failure.status, headers: failure.headers });
  }
}

export const CONFIRMED_MESSAGE = "Email address confirmed. You are signed in.";

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useSchemaForm(VerifyEmailSchema, { id: "verify-email", lastResult: actionData?.result });
  const password = fields.password;
  // A refusal the password does not own (an expired link, too many attempts) sits above the form.
  const formError = !password.errors?.length ? (form.errors?.[0] ?? null) : null;
  return (
    <AuthCard title="Confirm your email address">
      {loaderData.invalid ? (
        <AuthAlert message={loaderData.invalid} />
      ) : (
        <>
          <p className="mt-2 text-gray-600">
            Enter the password of the account for <strong>{loaderData.email}</strong> to confirm that this address is yours.
          </p>
          <AuthAlert message={formError} />
          <Form method="post" id={form.id} onSubmit={form.onSubmit} className="mt-6 space-y-4" noValidate>
            <input type="hidden" name="token" value={loaderData.token} />
            <AuthInput field={password} label="Password" type="password" autoComplete="current-password" />
            <button type="submit" className={authButtonClass}>
              Confirm email address
            </button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}
