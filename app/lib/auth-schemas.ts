import { z } from "zod";

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./auth-limits";
import { textError } from "./text-error";

// Shared by the forms, the route actions and the JSON API, so a rule is stated once.
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };

export const EmailSchema = z
  .string(textError("Email"))
  .trim()
  .min(1, "Email is required")
  .max(254, "Email is too long")
  .pipe(z.email("Enter a valid email address"))
  .transform((email) => email.toLowerCase());

export const LoginSchema = z.object({
  email: EmailSchema,
  password: z
    .string(textError("Password"))
    .min(1, "Password is required")
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
});

/** The address-confirmation page: the account's password (the link's token travels beside it). */
export const VerifyEmailSchema = z.object({ password: LoginSchema.shape.password });

export const RegisterSchema = z.object({
  email: EmailSchema,
  password: z
    .string(textError("Password"))
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
});

export type Credentials = z.infer<typeof LoginSchema>;

/** "Forgot password": the address to send a reset link to. */
export const ForgotPasswordSchema = z.object({ email: EmailSchema });

/** The reset link's page: the new password (the link's code travels beside it). */
export const ResetPasswordSchema = z.object({ password: RegisterSchema.shape.password });
