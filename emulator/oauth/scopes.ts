export const ADWORDS_SCOPE = "https://www.googleapis.com/auth/adwords";
export const EMAIL_SCOPE = "https://www.googleapis.com/auth/userinfo.email";
export const PROFILE_SCOPE = "https://www.googleapis.com/auth/userinfo.profile";

/** Short forms Google accepts in the authorization request, and the full URL it reports back in `scope`. */
const ALIASES: Record<string, string> = {
  email: EMAIL_SCOPE,
  profile: PROFILE_SCOPE,
};

/** Identity scopes are granted with sign-in itself; Google's granular consent offers no checkbox for them. */
const IDENTITY = new Set(["openid", EMAIL_SCOPE, PROFILE_SCOPE]);

const DESCRIPTIONS: Record<string, string> = {
  openid: "Associate you with your personal info on Google",
  [EMAIL_SCOPE]: "See your primary Google Account email address",
  [PROFILE_SCOPE]: "See your personal info, including any personal info you've made publicly available",
  [ADWORDS_SCOPE]: "See, edit, create and delete your Google Ads accounts and data.",
};

export function normalizeScope(s: string): string {
  return ALIASES[s] ?? s;
}

/** Known scopes plus any https://www.googleapis.com/auth/* scope (other Google APIs the app might ask for). */
export function isValidScope(s: string): boolean {
  return s === "openid" || s in ALIASES || /^https:\/\/www\.googleapis\.com\/auth\/[\w.-]+$/.test(s);
}

export function isIdentityScope(s: string): boolean {
  return IDENTITY.has(normalizeScope(s));
}

export function describeScope(s: string): string {
  const full = normalizeScope(s);
  return DESCRIPTIONS[full] ?? `Access ${full.replace("https://www.googleapis.com/auth/", "")} (${full})`;
}

/** Space-separated request → normalized, de-duplicated, order kept (Google echoes the request order). */
export function parseScopeParam(param: string): { scopes: string[]; invalid: string[] } {
  const scopes: string[] = [];
  const invalid: string[] = [];
  for (const raw of param.split(/\s+/).filter(Boolean)) {
    if (!isValidScope(raw)) {
      invalid.push(raw);
      continue;
    }
    const full = normalizeScope(raw);
    if (!scopes.includes(full)) scopes.push(full);
  }
  return { scopes, invalid };
}

export function scopeString(scopes: string[]): string {
  return scopes.join(" ");
}
