import toast from "react-hot-toast";

// Ids of the error toasts shown by notify(): a later success dismisses exactly
// these (dismissing every toast would also take down the success itself in
// react-hot-toast's queue).
const errorIds = new Set<string>();

/**
 * Shows a toast so that the same message never stacks (its text is its id:
 * a repeat replaces the one on screen instead of adding a second and third)
 * and a success clears the errors before it, which it has made stale (a
 * failed sign-in's "Invalid email or password" must not linger next to the
 * signed-in dashboard).
 */
export function notify(type: "success" | "error" | "blank", message: string): void {
  const id = `${type}:${message}`;
  if (type === "success") {
    clearErrors();
    toast.success(message, { id });
  } else if (type === "error") {
    errorIds.add(id);
    toast.error(message, { id });
  } else {
    toast(message, { id });
  }
}

/** Clears the error toasts: the person signed in or out, so what went wrong before no longer applies. */
export function clearErrors(): void {
  for (const id of errorIds) toast.dismiss(id);
  errorIds.clear();
}
