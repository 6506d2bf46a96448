import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, parseConfig } from "~/server/env.server";

/**
 * compose.yaml (issue 27, point 5) checked where Docker may be missing: its services, health
 * checks and variables, read as Compose reads them (YAML merge keys, ${VAR:-default} and
 * ${VAR:?error}), and the app's environment parsed by the server's own configuration code.
 * `npm run test:docker` runs the same file for real (tests/docker/compose.spec.ts).
 */
const root = path.resolve(import.meta.dirname, "../..");
const compose = parse(fs.readFileSync(path.join(root, "compose.yaml"), "utf8"), { merge: true }) as ComposeFile;
const caddyfile = fs.readFileSync(path.join(root, "Caddyfile"), "utf8");
const dockerfile = fs.readFileSync(path.join(root, "Dockerfile"), "utf8");

interface Service {
  image: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; interval: string; timeout: string; retries: number };
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

/** Compose's variable substitution: ${VAR}, ${VAR:-default}, ${VAR:?error} and $$. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (match, name: string | undefined, op: string | undefined, arg: string) => {
    if (match === "$$") return "$";
    const set = env[name!] !== undefined && env[name!] !== "";
    if (op === "?" && !set) throw new Error(`${name}: ${arg}`);
    return set ? env[name!] : op === "-" ? arg : "";
  });
}

const secrets = {
  POSTGRES_PASSWORD: "0123456789abcdef0123456789abcdef",
  SESSION_SECRET: "s".repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
};

const tmp: string[] = [];
afterAll(() => {
  for (const dir of tmp) fs.rmSync(dir, { recursive: true, force: true });
});

function appEnvironment(service: string, env: Record<string, string>) {
  return Object.fromEntries(Object.entries(compose.services[service].environment ?? {}).map(([k, v]) => [k, interpolate(String(v), env)]));
}

describe("compose.yaml", () => {
  it("runs PostgreSQL, two app instances and a reverse proxy, each with a health check", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["app1", "app2", "postgres", "proxy"]);
    const { postgres, app1, app2, proxy } = compose.services;
    expect(postgres.image).toMatch(/^postgres:\d+/);
    expect(proxy.image).toMatch(/^caddy:2/);
    for (const app of [app1, app2]) expect(app.image).toBe("${APP_IMAGE:-ads-ai-manager}");
    for (const service of Object.values(compose.services)) {
      expect(service.healthcheck?.test[0]).toBe("CMD");
      expect(service.healthcheck?.retries).toBeGreaterThan(0);
    }
    expect(postgres.healthcheck!.test).toContain("pg_isready");
    // The app's check is the image's own HEALTHCHECK command.
    const imageCheck = /^HEALTHCHECK .* CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(app1.healthcheck!.test.slice(1)).toEqual(JSON.parse(imageCheck!));
  });

  it("starts each service once what it needs is healthy", () => {
    const { app1, app2, proxy } = compose.services;
    for (const app of [app1, app2]) expect(app.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    expect(proxy.depends_on).toEqual({ app1: { condition: "service_healthy" }, app2: { condition: "service_healthy" } });
  });

  it("keeps the database, each instance's data and the proxy's certificates in named volumes", () => {
    const mounts = (service: string) => (compose.services[service].volumes ?? []).map((v) => v.split(":").slice(0, 2).join(":"));
    expect(mounts("postgres")).toContain("postgres-data:/var/lib/postgresql/data");
    expect(mounts("app1")).toEqual(["app1-data:/data"]);
    expect(mounts("app2")).toEqual(["app2-data:/data"]);
    expect(mounts("proxy")).toEqual(expect.arrayContaining(["./Caddyfile:/etc/caddy/Caddyfile", "caddy-data:/data"]));
    expect(Object.keys(compose.volumes).sort()).toEqual(["app1-data", "app2-data", "caddy-config", "caddy-data", "postgres-data"]);
    // Only the proxy is published, on this machine only unless told otherwise.
    expect(compose.services.app1.ports).toBeUndefined();
    expect(compose.services.postgres.ports).toBeUndefined();
    expect(compose.services.proxy.ports!.map((p) => interpolate(p, {}))).toEqual(["127.0.0.1:8080:80", "127.0.0.1:8443:443"]);
  });

  it("gives both instances one configuration the server accepts: shared secrets, one trusted proxy, PostgreSQL", () => {
    const app1 = appEnvironment("app1", secrets);
    expect(appEnvironment("app2", secrets)).toEqual(app1);
    for (const name of Object.keys(app1)) expect(CONFIG_VARIABLES).toContain(name);

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-compose-"));
    tmp.push(dataDir);
    const config = parseConfig({ ...app1, DATA_DIR: dataDir });
    expect(config.TRUST_PROXY).toBe(1);
    expect(config.APP_URL).toBe("http://localhost:8080");
    expect(config.SESSION_SECRET).toBe(secrets.SESSION_SECRET);
    // Given, so no instance generates secrets of its own.
    expect(fs.existsSync(path.join(dataDir, "secrets.json"))).toBe(false);

    const db = new URL(config.DATABASE_URL!);
    const pg = compose.services.postgres.environment!;
    expect(db.hostname).toBe("postgres");
    expect(db.username).toBe(pg.POSTGRES_USER);
    expect(db.pathname).toBe(`/${pg.POSTGRES_DB}`);
    expect(decodeURIComponent(db.password)).toBe(secrets.POSTGRES_PASSWORD);
    expect(interpolate(pg.POSTGRES_PASSWORD, secrets)).toBe(secrets.POSTGRES_PASSWORD);
  });

  it("refuses to start without the shared secrets", () => {
    for (const name of Object.keys(secrets)) {
      const missing: Record<string, string> = { ...secrets, [name]: "" };
      expect(() => appEnvironment("app1", missing)).toThrow(new RegExp(`^${name}: set ${name} in \\.env`));
    }
  });

  it("in demo mode, every instance and the browser use app1's Google emulator (through the proxy)", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ads-compose-"));
    tmp.push(dataDir);
    const config = parseConfig({ ...appEnvironment("app2", secrets), DATA_DIR: dataDir });
    expect(config.demoMode).toBe(true);
    expect(config.google.tokenUrl).toBe("http://app1:3000/emulator/token");
    expect(config.google.authorizationUrl).toBe("http://localhost:8080/emulator/o/oauth2/v2/auth");
    const emulator = new URL(appEnvironment("app1", secrets).DEMO_EMULATOR_URL);
    expect(caddyfile).toMatch(new RegExp(`handle /emulator/\\* \\{\\s*reverse_proxy ${emulator.host}\\s*\\}`));
    expect(caddyfile).toMatch(/reverse_proxy app1:3000 app2:3000 \{/);
    expect(caddyfile).toMatch(/health_uri \/readyz/);
  });
});
