import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import { requestInfoContext, requireAnonymous } from "~/server/request-context.server";
import { register, signIn } from "~/server/auth/credentials.server";
import { redirectSignedIn } from "~/server/auth/token-handoff.server";
import { FORGOT_PATH } from "~/lib/auth-paths";
import { getConfig } from "~/server/env.server";
import { toHttpError } from "~/server/http/errors.server";
import { PASSWORD_MIN_LENGTH } from "~/lib/auth-limits";
import { LoginSchema, RegisterSchema } from "~/lib/auth-schemas";
import { firstErrors, type FormResult } from "~/lib/form-result";
import { parseSubmission, refusal } from "~/lib/form-submission";
import type { Route } from "./+types/login";

export function meta({ location }: Route.MetaArgs) {
  const register = new URLSearchParams(location.search).get("mode") === "register";
  return [{ title: `${register ? "Create account" : "Sign in"} · Google Ads AI Manager` }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request, context);
  return { demoMode: getConfig().demoMode };
}

type ActionResult =
  { intent: "login" | "register"; ok: false; detail: string; result: FormResult } | { intent: "register"; ok: true; message: string; email: string };

// /login is checked on the server only: its JavaScript stays small and free of
// zod (bench: < 120 KB gzip, no zod), so the browser gets the schema's answer
// from the action, in Conform's reply shape (docs/decisions/008, amendment).
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = form.get("intent") === "register" ? "register" : "login";
  const submission = parseSubmission(form, intent === "register" ? RegisterSchema : LoginSchema);
  const input = { email: form.get("email") ?? undefined, password: form.get("password") ?? undefined };
  const { clientIp } = context.get(requestInfoContext);
  try {
    // The services parse with the same schema, after counting the attempt (malformed ones count too).
    if (intent === "register") {
      const registered = await register(input, clientIp);
      // The same words whether or not the address already had an account (issue 9 point 9).
      return data<ActionResult>({ intent, ok: true, message: REGISTERED_MESSAGE, email: registered.email });
    }
    const { session } = await signIn(input, request, clientIp);
    // The token reaches the browser's mirror (seed §3) through a one-load
    // cookie, never through the address (token-handoff.server.ts).
    return await redirectSignedIn(request, session);
  } catch (error) {
    const failure = toHttpError(error);
    if (!failure) throw error;
    // A password never travels back into the page.
    const result = refusal(submission, { formError: failure.detail, errors: failure.fieldErrors }, { hideFields: ["password"] });
    return data<ActionResult>({ intent, ok: false, detail: failure.detail, result }, { status: failure.status, headers: failure.headers });
  }
}

export const REGISTERED_MESSAGE =
  "Check your email: we sent a message to this address. A new account can sign in right away; the link in the message confirms the address.";

const FALLBACK = { login: "Login failed", register: "Registration failed" } as const;

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const result = actionData as ActionResult | undefined;
  // After a successful registration the sign-in form comes back, ready to use.
  const mode = result?.intent === "register" && result.ok ? "login" : (result?.intent ?? (params.get("mode") === "register" ? "register" : "login"));
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";

  // Each answer is said once, in the page (with JavaScript or without): no toast repeating it.
  const fieldErrors = result && !result.ok ? firstErrors(result.result) : {};
  const typedEmail = result?.ok ? result.email : result?.result.initialValue?.email;
  const detail = result && !result.ok ? result.detail || FALLBACK[result.intent] : null;
  // A message already shown next to its field is not repeated above the form.
  const shownAtField = Object.entries(fieldErrors).some(([name, message]) => name !== "" && message === detail);
  const error = shownAtField ? null : detail;

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-blue-50 to-indigo-100 p-4">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-xl">
        <div className="text-center">
          <h1 className="text-3xl font-bold text-gray-900">Google Ads AI Manager</h1>
          <p className="mt-2 text-gray-600">AI-powered Google Ads optimization platform</p>
          {mode === "register" ? <h2 className="mt-6 text-xl font-semibold text-gray-900">Create your account</h2> : null}
        </div>

        {loaderData.demoMode ? (
          <p data-testid="demo-mode" className="mt-6 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            <strong>Demo mode.</strong> No Google client is configured: “Sign in with Google Ads” signs in to a built-in demo Google account with sample data,
            shared by everyone who uses it here. Nothing reaches Google.
          </p>
        ) : null}

        <a
          href="/api/v1/auth/google"
          className="mt-8 flex w-full items-center justify-center gap-3 rounded-lg bg-blue-600 px-4 py-3 font-semibold text-white shadow hover:bg-blue-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2"
        >
          <GoogleMark />
          Sign in with Google Ads
        </a>
        <p className="mt-3 text-center text-sm text-gray-500">Requires Google Ads API access</p>

        <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-wide text-gray-400">
          <span className="h-px flex-1 bg-gray-200" />
          or with email
          <span className="h-px flex-1 bg-gray-200" />
        </div>

        {result?.ok ? (
          <p role="status" className="mb-4 rounded-md bg-green-50 px-3 py-2 text-sm text-green-800">
            {result.message}
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}

        <Form method="post" className="space-y-4" key={mode} noValidate>
          <input type="hidden" name="intent" value={mode} />
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete={mode === "register" ? "email" : "username"}
            defaultValue={typeof typedEmail === "string" ? typedEmail : ""}
            error={fieldErrors.email}
          />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete={mode === "register" ? "new-password" : "current-password"}
            error={fieldErrors.password}
            hint={mode === "register" ? `At least ${PASSWORD_MIN_LENGTH} characters` : undefined}
          />
          <button
            type="submit"
            disabled={busy}
            className="w-full rounded-lg bg-gray-900 px-4 py-2.5 font-semibold text-white hover:bg-gray-800 disabled:opacity-60"
          >
            {mode === "register" ? "Create account" : "Sign in"}
          </button>
        </Form>

        <p className="mt-6 text-center text-sm text-gray-600">
          {mode === "register" ? (
            <>
              Already have an account?{" "}
              <Link to="/login" className="font-semibold text-blue-600 hover:underline">
                Sign in
              </Link>
            </>
          ) : (
            <>
              <Link to={FORGOT_PATH} className="font-semibold text-blue-600 hover:underline">
                Forgot password?
              </Link>
              <span className="mx-2 text-gray-300" aria-hidden="true">
                ·
              </span>
              New here?{" "}
              <Link to="/login?mode=register" className="font-semibold text-blue-600 hover:underline">
                Create account
              </Link>
            </>
          )}
        </p>
      </div>
    </main>
  );
}

function Field(props: { label: string; name: string; type: string; autoComplete: string; defaultValue?: string; error?: string; hint?: string }) {
  const id = `login-${props.name}`;
  const describedBy = props.error ? `${id}-error` : props.hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type}
        autoComplete={props.autoComplete}
        defaultValue={props.defaultValue}
        required
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        className="mt-1 block w-full rounded-lg border border-gray-300 px-3 py-2 shadow-sm focus:border-blue-500 focus:outline-none focus:ring-1 focus:ring-blue-500 aria-[invalid]:border-red-500"
      />
      {props.error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600">
          {props.error}
        </p>
      ) : props.hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-gray-500">
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 rounded-sm bg-white p-0.5">
      <path fill="#4285F4" d="M22.6 12.2c0-.8-.1-1.5-.2-2.2H12v4.2h5.9a5 5 0 0 1-2.2 3.3v2.7h3.6c2.1-1.9 3.3-4.8 3.3-8z" />
      <path fill="#34A853" d="M12 23c3 0 5.5-1 7.3-2.7l-3.6-2.7c-1 .7-2.2 1.1-3.7 1.1-2.9 0-5.3-1.9-6.2-4.5H2.1v2.8A11 11 0 0 0 12 23z" />
      <path fill="#FBBC05" d="M5.8 14.2a6.6 6.6 0 0 1 0-4.3V7.1H2.1a11 11 0 0 0 0 9.9l3.7-2.8z" />
      <path fill="#EA4335" d="M12 5.4c1.6 0 3.1.6 4.2 1.7l3.2-3.2A11 11 0 0 0 2.1 7.1l3.7 2.8C6.7 7.3 9.1 5.4 12 5.4z" />
    </svg>
  );
}
