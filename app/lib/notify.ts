import toast from "react-hot-toast";

/**
 * Shows a toast so that the same message never stacks (its text is its id:
 * a repeat replaces the one on screen instead of adding a second and third)
 * and a success clears the errors before it, which it has made stale (a
 * failed sign-in's "Invalid email or password" must not linger next to the
 * signed-in dashboard).
 */
export function notify(type: "success" | "error" | "blank", message: string): void {
  if (type === "success") toast.dismiss();
  const id = `${type}:${message}`;
  if (type === "success") toast.success(message, { id });
  else if (type === "error") toast.error(message, { id });
  else toast(message, { id });
}

/** Clears every toast: the person signed in or out, so what was said before no longer applies. */
export function clearToasts(): void {
  toast.dismiss();
}
