import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { warnAboutPublicDemo } from "./boot.server";
import { parseConfig } from "./env.server";
import { captureLogs } from "./log.server";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "env-test-"));

describe("parseConfig", () => {
  it("works with no configuration at all: secrets are generated once and kept in DATA_DIR", () => {
    const dir = tmp();
    const first = parseConfig({ DATA_DIR: dir });
    expect(first.PORT).toBe(3000);
    expect(first.APP_URL).toBe("http://localhost:3000");
    expect(first.demoMode).toBe(true);
    expect(first.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    const stat = fs.statSync(path.join(dir, "secrets.json"));
    expect(stat.mode & 0o077).toBe(0);
    const second = parseConfig({ DATA_DIR: dir });
    expect(second.SESSION_SECRET).toBe(first.SESSION_SECRET);
    expect(second.encryptionKeys.get(1)).toEqual(first.encryptionKeys.get(1));
  });

  // Issue 25 point 6: the mounted emulator's client secret was the public constant "demo-secret".
  it("gives the demo client a secret of this install's own, shared by instances that share SESSION_SECRET", () => {
    const a = tmp();
    const first = parseConfig({ DATA_DIR: a });
    expect(first.google.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.google.clientSecret).not.toBe("demo-secret");
    expect(first.google.clientSecret).not.toBe(first.SESSION_SECRET);
    // Kept: the same install (its generated secrets in DATA_DIR) has the same one after a restart…
    expect(parseConfig({ DATA_DIR: a }).google.clientSecret).toBe(first.google.clientSecret);
    // …another install has another.
    expect(parseConfig({ DATA_DIR: tmp() }).google.clientSecret).not.toBe(first.google.clientSecret);
    // Instances given one SESSION_SECRET (compose: one instance's emulator serves all) agree; another secret, another client secret.
    const env = (secret: string) => ({ DATA_DIR: tmp(), SESSION_SECRET: secret.repeat(40), ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64") });
    expect(parseConfig(env("s")).google.clientSecret).toBe(parseConfig(env("s")).google.clientSecret);
    expect(parseConfig(env("s")).google.clientSecret).not.toBe(parseConfig(env("t")).google.clientSecret);
    // A configured Google client keeps its own secret.
    expect(parseConfig({ DATA_DIR: tmp(), GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "theirs" }).google.clientSecret).toBe("theirs");
  });

  it("refuses demo mode on an APP_URL that is not this machine unless DEMO_MODE=public", () => {
    expect(() => parseConfig({ DATA_DIR: tmp(), APP_URL: "https://ads.example.com" })).toThrow(/APP_URL: .*DEMO_MODE=public/s);
    expect(() => parseConfig({ DATA_DIR: tmp(), APP_URL: "http://192.168.1.20:3000" })).toThrow(/APP_URL/);
    const open = parseConfig({ DATA_DIR: tmp(), APP_URL: "https://ads.example.com", DEMO_MODE: "public" });
    expect(open.demoMode).toBe(true);
    // Google configured: no demo, nothing to refuse.
    expect(parseConfig({ DATA_DIR: tmp(), APP_URL: "https://ads.example.com", GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).demoMode).toBe(false);
    for (const local of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000", "http://ads.localhost:3000"]) {
      expect(parseConfig({ DATA_DIR: tmp(), APP_URL: local }).demoMode).toBe(true);
    }
    expect(() => parseConfig({ DATA_DIR: tmp(), DEMO_MODE: "yes" })).toThrow(/DEMO_MODE/);
  });

  it("says at start what DEMO_MODE=public means", () => {
    const logs = captureLogs();
    try {
      warnAboutPublicDemo(parseConfig({ DATA_DIR: tmp(), APP_URL: "https://demo.example.com", DEMO_MODE: "public" }));
      warnAboutPublicDemo(parseConfig({ DATA_DIR: tmp() }));
    } finally {
      logs.restore();
    }
    expect(logs.records).toHaveLength(1);
    expect(logs.records[0]).toMatchObject({ level: "warn" });
    expect(logs.records[0].msg).toMatch(/DEMO_MODE=public: .*https:\/\/demo\.example\.com.*same demo Google user.*share its chats, change sets and AI budget/);
  });

  it("lets the environment win over generated secrets", () => {
    const secret = "s".repeat(40);
    const key = Buffer.alloc(32, 7).toString("base64");
    const config = parseConfig({ DATA_DIR: tmp(), SESSION_SECRET: secret, ENCRYPTION_KEY: key, ENCRYPTION_KEY_VERSION: "3" });
    expect(config.SESSION_SECRET).toBe(secret);
    expect(config.encryptionKeys.get(3)).toEqual(Buffer.alloc(32, 7));
  });

  it("names the variable when a value is bad", () => {
    expect(() => parseConfig({ DATA_DIR: tmp(), PORT: "http" })).toThrow(/PORT/);
    expect(() => parseConfig({ DATA_DIR: tmp(), DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ DATA_DIR: tmp(), ENCRYPTION_KEY: "short" })).toThrow(/ENCRYPTION_KEY/);
    expect(() => parseConfig({ DATA_DIR: tmp(), SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET/);
    expect(() => parseConfig({ DATA_DIR: tmp(), GOOGLE_CLIENT_ID: "id" })).toThrow(/GOOGLE_CLIENT_SECRET/);
    expect(() => parseConfig({ DATA_DIR: tmp(), GOOGLE_ADS_API_VERSION: "24" })).toThrow(/GOOGLE_ADS_API_VERSION/);
    expect(() => parseConfig({ DATA_DIR: tmp(), ENCRYPTION_OLD_KEYS: "nope" })).toThrow(/ENCRYPTION_OLD_KEYS/);
    expect(() => parseConfig({ DATA_DIR: tmp(), DOCUMENT_CACHE_MB: "-1" })).toThrow(/DOCUMENT_CACHE_MB/);
    expect(() => parseConfig({ DATA_DIR: tmp(), DOCUMENT_CACHE_MB: "lots" })).toThrow(/DOCUMENT_CACHE_MB/);
  });

  it("keeps 32 MB of rendered pages by default; 0 turns the cache off", () => {
    expect(parseConfig({ DATA_DIR: tmp() }).DOCUMENT_CACHE_MB).toBe(32);
    expect(parseConfig({ DATA_DIR: tmp(), DOCUMENT_CACHE_MB: "0" }).DOCUMENT_CACHE_MB).toBe(0);
  });

  it("points Google endpoints at the mounted emulator in demo mode, and at Google in live mode", () => {
    const demo = parseConfig({ DATA_DIR: tmp(), PORT: "4000" });
    expect(demo.google.authorizationUrl).toBe("http://localhost:4000/emulator/o/oauth2/v2/auth");
    expect(demo.google.adsApiUrl).toBe("http://127.0.0.1:4000/emulator");
    const live = parseConfig({ DATA_DIR: tmp(), GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" });
    expect(live.demoMode).toBe(false);
    expect(live.google.authorizationUrl).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(live.google.tokenUrl).toBe("https://oauth2.googleapis.com/token");
    expect(live.google.adsApiUrl).toBe("https://googleads.googleapis.com");
    const custom = parseConfig({ DATA_DIR: tmp(), GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s", GOOGLE_TOKEN_URL: "http://127.0.0.1:9/t" });
    expect(custom.google.tokenUrl).toBe("http://127.0.0.1:9/t");
  });

  it("in demo mode sends the browser to APP_URL and the server's own calls to where it listens (Docker's -p 8080:3000)", () => {
    const mapped = parseConfig({ DATA_DIR: tmp(), PORT: "3000", APP_URL: "https://ads.example.com", DEMO_MODE: "public" });
    expect(mapped.google.authorizationUrl).toBe("https://ads.example.com/emulator/o/oauth2/v2/auth");
    expect(mapped.google.tokenUrl).toBe("http://127.0.0.1:3000/emulator/token");
    expect(mapped.google.userinfoUrl).toBe("http://127.0.0.1:3000/emulator/v1/userinfo");
    expect(mapped.google.revokeUrl).toBe("http://127.0.0.1:3000/emulator/revoke");
    expect(mapped.google.adsApiUrl).toBe("http://127.0.0.1:3000/emulator");
    expect(parseConfig({ DATA_DIR: tmp(), PORT: "3000", HOST: "::" }).google.tokenUrl).toBe("http://[::1]:3000/emulator/token");
    expect(parseConfig({ DATA_DIR: tmp(), PORT: "3000", HOST: "10.1.2.3" }).google.tokenUrl).toBe("http://10.1.2.3:3000/emulator/token");
    // Several instances share one instance's emulator; the browser still goes through APP_URL.
    const shared = parseConfig({ DATA_DIR: tmp(), APP_URL: "http://localhost:8080", DEMO_EMULATOR_URL: "http://app1:3000/emulator/" });
    expect(shared.google.tokenUrl).toBe("http://app1:3000/emulator/token");
    expect(shared.google.adsApiUrl).toBe("http://app1:3000/emulator");
    expect(shared.google.authorizationUrl).toBe("http://localhost:8080/emulator/o/oauth2/v2/auth");
    expect(() => parseConfig({ DATA_DIR: tmp(), DEMO_EMULATOR_URL: "app1:3000" })).toThrow(/DEMO_EMULATOR_URL/);
  });

  it("treats empty strings as unset", () => {
    expect(parseConfig({ DATA_DIR: tmp(), PORT: "", GOOGLE_CLIENT_ID: "" }).demoMode).toBe(true);
  });
});

describe("AI model configuration", () => {
  it("is off by default and splits AI_MODEL at the first colon", () => {
    expect(parseConfig({ DATA_DIR: tmp() }).ai).toBeNull();
    const local = parseConfig({ DATA_DIR: tmp(), AI_MODEL: "openai-compatible:qwen3:8b", AI_BASE_URL: "http://localhost:11434/v1/" });
    expect(local.ai).toEqual({ provider: "openai-compatible", modelId: "qwen3:8b", baseUrl: "http://localhost:11434/v1", apiKey: undefined });
    expect(local.AI_DAILY_MESSAGE_LIMIT).toBe(200);
  });

  it("takes the key from AI_API_KEY or the provider's own variable, and never keeps AI_API_KEY at the top level", () => {
    const own = parseConfig({ DATA_DIR: tmp(), AI_MODEL: "anthropic:claude-sonnet-4-5", ANTHROPIC_API_KEY: "sk-own" });
    expect(own.ai).toMatchObject({ provider: "anthropic", modelId: "claude-sonnet-4-5", apiKey: "sk-own" });
    const generic = parseConfig({ DATA_DIR: tmp(), AI_MODEL: "google:gemini-2.5-flash", AI_API_KEY: "k1", GOOGLE_GENERATIVE_AI_API_KEY: "k2" });
    expect(generic.ai?.apiKey).toBe("k1");
    expect("AI_API_KEY" in generic).toBe(false);
  });

  it("stops with a message naming the variable when a value is bad", () => {
    expect(() => parseConfig({ DATA_DIR: tmp(), AI_MODEL: "gpt-4" })).toThrow(/AI_MODEL/);
    expect(() => parseConfig({ DATA_DIR: tmp(), AI_MODEL: "mistral:large" })).toThrow(/AI_MODEL/);
    expect(() => parseConfig({ DATA_DIR: tmp(), AI_MODEL: "openai:" })).toThrow(/AI_MODEL/);
    expect(() => parseConfig({ DATA_DIR: tmp(), AI_MODEL: "openai-compatible:llama3" })).toThrow(/AI_BASE_URL: required/);
    expect(() => parseConfig({ DATA_DIR: tmp(), AI_MODEL: "openai:gpt-4.1-mini" })).toThrow(/AI_API_KEY.*OPENAI_API_KEY/);
    expect(() => parseConfig({ DATA_DIR: tmp(), AI_BASE_URL: "http://x/v1" })).toThrow(/AI_BASE_URL/);
    expect(() => parseConfig({ DATA_DIR: tmp(), AI_MODEL: "openai-compatible:x", AI_BASE_URL: "localhost:11434" })).toThrow(/AI_BASE_URL/);
    expect(() => parseConfig({ DATA_DIR: tmp(), AI_DAILY_MESSAGE_LIMIT: "0" })).toThrow(/AI_DAILY_MESSAGE_LIMIT/);
    expect(() => parseConfig({ DATA_DIR: tmp(), AI_DAILY_AD_COPY_LIMIT: "-1" })).toThrow(/AI_DAILY_AD_COPY_LIMIT/);
    expect(() => parseConfig({ DATA_DIR: tmp(), AI_MONTHLY_TOKEN_BUDGET: "lots" })).toThrow(/AI_MONTHLY_TOKEN_BUDGET/);
  });

  it("refuses credentials in AI_BASE_URL, and names the plain-http risk, without repeating the password", () => {
    const attempt = (url: string) => {
      try {
        parseConfig({ DATA_DIR: tmp(), AI_MODEL: "openai-compatible:x", AI_BASE_URL: url });
      } catch (error) {
        return (error as Error).message;
      }
      return "accepted";
    };
    const plain = attempt("http://bob:hunter2@models.internal:8000/v1");
    expect(plain).toMatch(/AI_BASE_URL: contains credentials .* over plain http/);
    expect(plain).not.toContain("hunter2");
    const tls = attempt("https://bob:hunter2@models.example/v1");
    expect(tls).toMatch(/AI_BASE_URL: contains credentials/);
    expect(tls).not.toContain("hunter2");
    expect(attempt("https://models.example/v1")).toBe("accepted");
  });

  it("has per-feature daily limits, an optional monthly budget and an output cap", () => {
    const c = parseConfig({ DATA_DIR: tmp() });
    expect([c.AI_DAILY_MESSAGE_LIMIT, c.AI_DAILY_AD_COPY_LIMIT, c.AI_MONTHLY_TOKEN_BUDGET, c.AI_MAX_OUTPUT_TOKENS]).toEqual([200, 50, undefined, 2000]);
    expect(parseConfig({ DATA_DIR: tmp(), AI_MONTHLY_TOKEN_BUDGET: "5000000" }).AI_MONTHLY_TOKEN_BUDGET).toBe(5_000_000);
  });
});
