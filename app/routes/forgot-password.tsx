import { data, Form, Link } from "react-router";
import { errorAria, FieldMessage, useSchemaForm } from "~/components/forms";
import { ForgotPasswordSchema } from "~/lib/auth-schemas";
import { parseSubmission, refusal } from "~/lib/form-submission";
import { requestPasswordReset, RESET_REQUESTED_MESSAGE } from "~/server/auth/password-reset.server";
import { userFacingError } from "~/server/http/errors.server";
import { requestInfoContext } from "~/server/request-context.server";
import { AuthCard, authButtonClass, authFieldClass } from "~/components/auth-card";
import type { Route } from "./+types/forgot-password";

// "Forgot password": one answer whether or not the address has an account (password-reset.server.ts).

export function meta() {
  return [{ title: "Reset your password · Google Ads AI Manager" }];
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const submission = parseSubmission(form, ForgotPasswordSchema);
  try {
    await requestPasswordReset({ email: form.get("email") ?? undefined }, context.get(requestInfoContext).clientIp);
    return data({ sent: { message: RESET_REQUESTED_MESSAGE }, result: null });
  } catch (error) {
    const failure = userFacingError(error);
    if (!failure) throw error;
    const result = refusal(submission, { formError: failure.detail, errors: failure.fieldErrors });
    return data({ sent: null, result }, { status: failure.status, headers: failure.headers });
  }
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const [form, fields] = useSchemaForm(ForgotPasswordSchema, { id: "forgot-password", lastResult: actionData?.result });
  const email = fields.email;
  const formError = !email.errors?.length ? (form.errors?.[0] ?? null) : null;
  return (
    <AuthCard title="Reset your password">
      {actionData?.sent ? (
        <p role="status" className="mt-4 rounded-md bg-green-50 px-3 py-2 text-sm text-green-800">
          {actionData.sent.message}
        </p>
      ) : (
        <>
          <p className="mt-2 text-gray-600">Enter the email address of your account. We will send it a link to choose a new password.</p>
          {formError ? (
            <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
              {formError}
            </p>
          ) : null}
          <Form method="post" id={form.id} onSubmit={form.onSubmit} className="mt-6 space-y-4" noValidate>
            <div>
              <label htmlFor={email.id} className="block text-sm font-medium text-gray-700">
                Email
              </label>
              <input
                id={email.id}
                name={email.name}
                type="email"
                autoComplete="username"
                defaultValue={email.initialValue ?? ""}
                required
                {...errorAria(email)}
                className={authFieldClass}
              />
              <FieldMessage field={email} className="mt-1 text-sm text-red-600" />
            </div>
            <button type="submit" className={authButtonClass}>
              Send reset link
            </button>
          </Form>
        </>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="font-semibold text-blue-600 hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
