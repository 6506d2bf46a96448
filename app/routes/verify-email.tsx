import { data, Form } from "react-router";
import { CONFIRM_LINK_INVALID, confirmEmail } from "~/server/auth/credentials.server";
import { readVerificationToken } from "~/server/auth/email-verification.server";
import { userFacingError } from "~/server/http/errors.server";
import { toastHeader } from "~/server/toast.server";
import { redirectSignedIn } from "~/server/auth/token-handoff.server";
import { errorAria, FieldMessage, useSchemaForm } from "~/components/forms";
import { AuthCard, authButtonClass, authFieldClass } from "~/components/auth-card";
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
        <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {loaderData.invalid}
        </p>
      ) : (
        <>
          <p className="mt-2 text-gray-600">
            Enter the password of the account for <strong>{loaderData.email}</strong> to confirm that this address is yours.
          </p>
          {formError ? (
            <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {formError}
            </p>
          ) : null}
          <Form method="post" id={form.id} onSubmit={form.onSubmit} className="mt-6 space-y-4" noValidate>
            <input type="hidden" name="token" value={loaderData.token} />
            <div>
              <label htmlFor={password.id} className="block text-sm font-medium text-gray-700">
                Password
              </label>
              <input
                id={password.id}
                name={password.name}
                type="password"
                autoComplete="current-password"
                required
                {...errorAria(password)}
                className={authFieldClass}
              />
              <FieldMessage field={password} className="mt-1 text-sm text-red-600" />
            </div>
            <button type="submit" className={authButtonClass}>
              Confirm email address
            </button>
          </Form>
        </>
      )}
      <p className="mt-6 text-center text-sm">
        <a href="/login" className="font-semibold text-blue-600 hover:underline">
          Back to sign in
        </a>
      </p>
    </AuthCard>
  );
}
