import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/** The id_token signing key: generated per emulator start, published as a JWKS. */
export class SigningKey {
  readonly kid: string;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  constructor() {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.kid = randomBytes(20).toString("hex");
  }

  jwks(): { keys: Array<Record<string, unknown>> } {
    const jwk = this.publicKey.export({ format: "jwk" }) as { n: string; e: string; kty: string };
    return { keys: [{ kty: jwk.kty, n: jwk.n, e: jwk.e, alg: "RS256", use: "sig", kid: this.kid }] };
  }

  signJwt(claims: Record<string, unknown>): string {
    const header = { alg: "RS256", kid: this.kid, typ: "JWT" };
    const input = `${b64json(header)}.${b64json(claims)}`;
    const signature = sign("sha256", Buffer.from(input), this.privateKey).toString("base64url");
    return `${input}.${signature}`;
  }
}

function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** OIDC at_hash: base64url of the left half of SHA-256(access_token). */
export function atHash(accessToken: string): string {
  const digest = createHash("sha256").update(accessToken).digest();
  return digest.subarray(0, digest.length / 2).toString("base64url");
}
