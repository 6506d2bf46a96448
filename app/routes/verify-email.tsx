import { data, Form } from "react-router";
import { CONFIRM_LINK_INVALID, confirmEmail } from "~/server/auth/credentials.server";
import { readVerificationToken } from "~/server/auth/email-verification.server";
import { userFacingError } from "~/server/http/errors.server";
import { redirectWithToast } from "~/server/toast.server";
import { errorAria, FieldMessage, useSchemaForm } from "~/components/forms";
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
    await confirmEmail(form.get("token"), form.get("password"), context.get(requestInfoContext).clientIp);
  } catch (error) {
    const failure = userFacingError(error);
    if (!failure) throw error;
    const result = refusal(submission, { formError: failure.detail, errors: failure.fieldErrors }, { hideFields: ["password"] });
    return data({ result }, { status: failure.status, headers: failure.headers });
  }
  return redirectWithToast("/login", { type: "success", message: "Email address confirmed. You can sign in." });
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useSchemaForm(VerifyEmailSchema, { id: "verify-email", lastResult: actionData?.result });
  const password = fields.password;
  // A refusal the password does not own (an expired link, too many attempts) sits above the form.
  const formError = !password.errors?.length ? (form.errors?.[0] ?? null) : null;
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-blue-50 to-indigo-100 p-4">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-xl">
        <h1 className="text-2xl font-bold text-gray-900">Confirm your email address</h1>
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
                  className="mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 shadow-sm focus:border-blue-500 focus:outline-none focus:ring-1 focus:ring-blue-500 aria-[invalid]:border-red-500"
                />
                <FieldMessage field={password} className="mt-1 text-sm text-red-600" />
              </div>
              <button type="submit" className="w-full rounded-lg bg-gray-900 px-4 py-2.5 font-semibold text-white hover:bg-gray-800">
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
      </div>
    </main>
  );
}
