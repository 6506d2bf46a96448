import { spawnSync } from "node:child_process";
import fs from "node:fs";
import tls from "node:tls";

/**
 * The CA file of a proxy that re-signs TLS, as this machine's Node and npm are told about it
 * (NODE_EXTRA_CA_CERTS, else npm's `cafile`): handed to `npm ci` in the image's build stage as a
 * build secret, never to the final image. Undefined where there is none.
 */
export function proxyCaFile(): string | undefined {
  const fromNode = process.env.NODE_EXTRA_CA_CERTS;
  if (fromNode && fs.existsSync(fromNode)) return fromNode;
  const fromNpm = spawnSync("npm", ["config", "get", "cafile"], { encoding: "utf8" }).stdout?.trim();
  return fromNpm && fromNpm !== "null" && fs.existsSync(fromNpm) ? fromNpm : undefined;
}

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const normalize = (pem: string) => pem.replace(/\s+/g, "");

/**
 * The certificates of that file Node does not trust on its own (the proxy's), each as one line of
 * its base64 body: what the final image must not contain anywhere.
 */
export function extraCertificateMarkers(file: string): string[] {
  const builtIn = new Set(tls.rootCertificates.map(normalize));
  return (fs.readFileSync(file, "utf8").match(PEM) ?? [])
    .filter((pem) => !builtIn.has(normalize(pem)))
    .map((pem) => pem.split("\n").map((line) => line.trim())[2])
    .filter((line) => line && line.length >= 40);
}
