import { describe, expect, it } from "vitest";
import { canonicalRedirect } from "./canonical-host.server";

describe("canonicalRedirect", () => {
  const appUrl = "http://localhost:3000";
  it("sends the Google sign-in's start on another host to APP_URL, path and query kept", () => {
    expect(canonicalRedirect({ method: "GET", host: "127.0.0.1:3000", originalUrl: "/api/v1/auth/google?returnTo=/campaigns" }, appUrl)).toBe(
      "http://localhost:3000/api/v1/auth/google?returnTo=/campaigns",
    );
    expect(canonicalRedirect({ method: "GET", host: "ads.internal", originalUrl: "/api/v1/auth/google" }, "https://ads.example.com")).toBe(
      "https://ads.example.com/api/v1/auth/google",
    );
  });
  it("leaves everything else alone", () => {
    expect(canonicalRedirect({ method: "GET", host: "localhost:3000", originalUrl: "/api/v1/auth/google" }, appUrl)).toBeNull();
    expect(canonicalRedirect({ method: "GET", host: "LOCALHOST:3000", originalUrl: "/api/v1/auth/google" }, appUrl)).toBeNull();
    expect(canonicalRedirect({ method: "GET", host: "127.0.0.1:3000", originalUrl: "/dashboard" }, appUrl)).toBeNull();
    expect(canonicalRedirect({ method: "GET", host: "127.0.0.1:3000", originalUrl: "/healthz" }, appUrl)).toBeNull();
    expect(canonicalRedirect({ method: "POST", host: "127.0.0.1:3000", originalUrl: "/api/v1/auth/google" }, appUrl)).toBeNull();
    expect(canonicalRedirect({ method: "GET", host: "127.0.0.1:3000", originalUrl: "/api/v1/auth/google/callback?code=x" }, appUrl)).toBeNull();
  });
});
