/**
 * zod's error for a text field that is missing or was sent as something else
 * (a number or a list, in the JSON API): the message says which, instead of
 * calling a field that was sent "required".
 */
export const textError = (field: string) => ({
  error: (issue: { input: unknown }) => (issue.input == null ? `${field} is required` : `${field} must be text`),
});
