import "react-router";

declare module "react-router" {
  interface AppLoadContext {
    /** The client's address, as resolved by the HTTP server (honours TRUST_PROXY). */
    clientIp?: string;
    /** Per-response nonce for inline scripts, also set in the Content-Security-Policy. */
    cspNonce?: string;
  }
}
