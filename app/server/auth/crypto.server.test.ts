import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret, DecryptionError, encryptSecret, needsReencryption, type KeyRing } from "./crypto.server";

const k1 = randomBytes(32);
const k2 = randomBytes(32);
const ring1: KeyRing = { current: 1, keys: new Map([[1, k1]]) };

describe("encryptSecret / decryptSecret", () => {
  it("round-trips, with a fresh IV each time and the key version in the payload", () => {
    const a = encryptSecret("1//refresh-token", "ctx", ring1);
    const b = encryptSecret("1//refresh-token", "ctx", ring1);
    expect(a).toMatch(/^enc:v1:/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("refresh-token");
    expect(decryptSecret(a, "ctx", ring1)).toBe("1//refresh-token");
  });

  it("fails on any tampering", () => {
    const payload = encryptSecret("secret", "ctx", ring1);
    const raw = Buffer.from(payload.slice("enc:v1:".length), "base64url");
    for (const index of [0, 13, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[index] ^= 0x01;
      expect(() => decryptSecret(`enc:v1:${bad.toString("base64url")}`, "ctx", ring1)).toThrow(DecryptionError);
    }
    expect(() => decryptSecret("enc:v1:AAAA", "ctx", ring1)).toThrow(DecryptionError);
    expect(() => decryptSecret("plaintext", "ctx", ring1)).toThrow(DecryptionError);
  });

  it("fails when moved to another context (row or column)", () => {
    const payload = encryptSecret("secret", "connection:a", ring1);
    expect(() => decryptSecret(payload, "connection:b", ring1)).toThrow(DecryptionError);
  });

  it("rotates keys: old ciphertext still decrypts, new uses the new key", () => {
    const old = encryptSecret("secret", "ctx", ring1);
    const ring2: KeyRing = {
      current: 2,
      keys: new Map([
        [1, k1],
        [2, k2],
      ]),
    };
    expect(decryptSecret(old, "ctx", ring2)).toBe("secret");
    expect(needsReencryption(old, ring2)).toBe(true);
    const fresh = encryptSecret("secret", "ctx", ring2);
    expect(fresh).toMatch(/^enc:v2:/);
    expect(needsReencryption(fresh, ring2)).toBe(false);
    // Once the old key is retired, old data no longer opens, with a message that says why.
    const ring2only: KeyRing = { current: 2, keys: new Map([[2, k2]]) };
    expect(() => decryptSecret(old, "ctx", ring2only)).toThrow(/ENCRYPTION_OLD_KEYS/);
  });

  it("refuses the wrong key", () => {
    const payload = encryptSecret("secret", "ctx", ring1);
    expect(() => decryptSecret(payload, "ctx", { current: 1, keys: new Map([[1, k2]]) })).toThrow(DecryptionError);
  });
});
