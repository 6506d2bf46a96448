// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from "vitest";
import { consoleError } from "../../tests/setup/vitest.setup";
import { AUTH_STORAGE_KEY, AUTH_TOKEN_KEY, readAuthState, syncAuthState } from "./auth-storage";

beforeEach(() => localStorage.clear());

describe("auth storage mirror", () => {
  it("writes the verified token under both seed keys", () => {
    syncAuthState("a@example.com", "tok123");
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe("tok123");
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!)).toEqual({
      user: { email: "a@example.com" },
      token: "tok123",
      isAuthenticated: true,
    });
  });

  it("clears both keys when the server says anonymous", () => {
    syncAuthState("a@example.com", "tok123");
    syncAuthState(null, null);
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });

  it("drops a mirror left by another account", () => {
    syncAuthState("a@example.com", "tok123");
    syncAuthState("b@example.com", null);
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it("keeps the mirror across navigations of the same user", () => {
    syncAuthState("a@example.com", "tok123");
    syncAuthState("a@example.com", null);
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe("tok123");
  });

  it("logs 'Failed to parse auth token' for a corrupt state and goes on", () => {
    consoleError.mockImplementation(() => {});
    localStorage.setItem(AUTH_STORAGE_KEY, "{broken");
    expect(readAuthState()).toBeNull();
    expect(consoleError).toHaveBeenCalledWith("Failed to parse auth token");
    syncAuthState(null, null);
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });
});
