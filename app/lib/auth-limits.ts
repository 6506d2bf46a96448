// Password limits, without zod: the sign-in page's bundle needs the numbers, not the validator.
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
