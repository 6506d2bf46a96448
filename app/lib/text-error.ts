/**
 * zod's error for a value that is missing or was sent as the wrong type (in
 * the JSON API: a number for text, a string for a list): the message says
 * which, instead of calling a value that was sent "required".
 */
export const missingOrWrongType = (missing: string, wrongType: string) => ({
  error: (issue: { input: unknown }) => (issue.input == null ? missing : wrongType),
});

/** The same for a text field: "<field> is required" / "<field> must be text". */
export const textError = (field: string) => missingOrWrongType(`${field} is required`, `${field} must be text`);
