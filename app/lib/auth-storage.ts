// The browser's mirror of the auth state, under the seed's storage keys. The
// server never trusts these values; they exist for scripts and the API client.
export const AUTH_TOKEN_KEY = "auth-token";
export const AUTH_STORAGE_KEY = "auth-storage";

export interface AuthState {
  user: { email: string } | null;
  token: string | null;
  isAuthenticated: boolean;
}

export function readAuthState(storage: Storage = window.localStorage): AuthState | null {
  const raw = storage.getItem(AUTH_STORAGE_KEY);
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<AuthState> | null;
    if (!parsed || typeof parsed !== "object") throw new Error("not an object");
    return {
      user: parsed.user && typeof parsed.user.email === "string" ? { email: parsed.user.email } : null,
      token: typeof parsed.token === "string" ? parsed.token : null,
      isAuthenticated: parsed.isAuthenticated === true,
    };
  } catch {
    console.error("Failed to parse auth token");
    return null;
  }
}

export function writeAuthState(email: string, token: string, storage: Storage = window.localStorage) {
  const state: AuthState = { user: { email }, token, isAuthenticated: true };
  storage.setItem(AUTH_TOKEN_KEY, token);
  storage.setItem(AUTH_STORAGE_KEY, JSON.stringify(state));
}

export function clearAuthState(storage: Storage = window.localStorage) {
  storage.removeItem(AUTH_TOKEN_KEY);
  storage.removeItem(AUTH_STORAGE_KEY);
}

/**
 * Brings the mirror in line with what the server says: `email` is the signed-in
 * user (null when anonymous) and `verifiedToken` a token the server confirmed
 * belongs to this very session.
 */
export function syncAuthState(email: string | null, verifiedToken: string | null, storage: Storage = window.localStorage) {
  const current = readAuthState(storage);
  const corrupt = current === null && storage.getItem(AUTH_STORAGE_KEY) !== null;
  if (!email) {
    if (current || corrupt || storage.getItem(AUTH_TOKEN_KEY) !== null) clearAuthState(storage);
    return;
  }
  if (verifiedToken) {
    writeAuthState(email, verifiedToken, storage);
    return;
  }
  // A mirror left by another account is stale: its token died with that session.
  if (corrupt || (current?.user && current.user.email !== email)) clearAuthState(storage);
}
