import net from "node:net";
import ipaddr from "ipaddr.js";
import { z } from "zod";

/**
 * Which `X-Forwarded-For` entries to believe (TRUST_PROXY), in the form
 * Express's "trust proxy" setting takes. The client address is then the
 * right-most entry that was not added by a trusted proxy, so a client cannot
 * pick its own address by sending the header itself through an appending
 * proxy (the left-most entry is whatever the client wrote).
 *
 * - `false` / `0`: no proxy; the peer address is the client.
 * - `true`: one proxy in front (same as `1`), the usual TLS-terminating proxy.
 * - `N`: N proxies in front; the N-th address from the right is the client.
 * - `10.0.0.0/8,192.168.1.7`: addresses/CIDRs (or `loopback`, `linklocal`,
 *   `uniquelocal`) of trusted proxies; hops from them are skipped.
 */
export type TrustProxy = false | number | string[];

const KEYWORDS = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrRange(entry: string): boolean {
  if (KEYWORDS.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split("/");
  const version = net.isIP(address ?? "");
  if (!version || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

export const TRUST_PROXY_HELP =
  "must be true, false, a number of proxies in front (1, 2, …) or a comma-separated list of trusted proxy addresses or CIDRs (e.g. 10.0.0.0/8)";

export function parseTrustProxy(value: string): TrustProxy | undefined {
  const v = value.trim().toLowerCase();
  if (["false", "0", "no", "off"].includes(v)) return false;
  if (["true", "yes", "on"].includes(v)) return 1;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  const entries = v
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0 || !entries.every(isAddressOrRange)) return undefined;
  return entries;
}

export const trustProxySchema = z.string().transform((value, ctx): TrustProxy => {
  const parsed = parseTrustProxy(value);
  if (parsed === undefined) {
    ctx.addIssue({ code: "custom", message: TRUST_PROXY_HELP });
    return z.NEVER;
  }
  return parsed;
});

/**
 * What a limit counts a client under: an IPv4 address as it is, an IPv6
 * address by its /64. One subscriber is given a whole /64 (or more) and can
 * rotate through its addresses freely, so counting exact IPv6 addresses would
 * let one client walk around every limit. IPv4-mapped IPv6 addresses
 * (`::ffff:192.0.2.1`, how a dual-stack socket reports IPv4) count as IPv4.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  let address = ipaddr.parse(ip);
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) address = address.toIPv4Address();
  if (address instanceof ipaddr.IPv4) return address.toString();
  return `${address.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(":")}::/64`;
}
