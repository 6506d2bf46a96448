import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "./env.server";

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
  });

  it("points Google endpoints at the mounted emulator in demo mode, and at Google in live mode", () => {
    const demo = parseConfig({ DATA_DIR: tmp(), PORT: "4000" });
    expect(demo.google.authorizationUrl).toBe("http://localhost:4000/emulator/o/oauth2/v2/auth");
    expect(demo.google.adsApiUrl).toBe("http://localhost:4000/emulator");
    const live = parseConfig({ DATA_DIR: tmp(), GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" });
    expect(live.demoMode).toBe(false);
    expect(live.google.authorizationUrl).toBe("https://accounts.google.com/o/oauth2/v2/auth");
    expect(live.google.tokenUrl).toBe("https://oauth2.googleapis.com/token");
    expect(live.google.adsApiUrl).toBe("https://googleads.googleapis.com");
    const custom = parseConfig({ DATA_DIR: tmp(), GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s", GOOGLE_TOKEN_URL: "http://127.0.0.1:9/t" });
    expect(custom.google.tokenUrl).toBe("http://127.0.0.1:9/t");
  });

  it("treats empty strings as unset", () => {
    expect(parseConfig({ DATA_DIR: tmp(), PORT: "", GOOGLE_CLIENT_ID: "" }).demoMode).toBe(true);
  });
});
