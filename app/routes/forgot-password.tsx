import { data, Form } from "react-router";
import { useSchemaForm } from "~/components/forms";
import { ForgotPasswordSchema } from "~/lib/auth-schemas";
import { parseSubmission, refusal } from "~/lib/form-submission";
import { requestPasswordReset, RESET_REQUESTED_MESSAGE } from "~/server/auth/password-reset.server";
import { userFacingError } from "~/server/http/errors.server";
import { requestInfoContext } from "~/server/request-context.server";
import { AuthAlert, AuthCard, AuthInput, authButtonClass } from "~/components/auth-card";
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
          <AuthAlert message={formError} />
          <Form method="post" id={form.id} onSubmit={form.onSubmit} className="mt-6 space-y-4" noValidate>
            <AuthInput field={email} label="Email" type="email" autoComplete="username" />
            <button type="submit" className={authButtonClass}>
              Send reset link
            </button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}
