// Addresses of the signed-out account pages, for the server (links in mails) and the pages' own links.
export const FORGOT_PATH = "/forgot-password";
export const RESET_PATH = "/reset-password";
