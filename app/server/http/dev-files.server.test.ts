import { describe, expect, it } from "vitest";
import { namesDataDirFile } from "./dev-files.server";

describe("namesDataDirFile (npm run dev never serves DATA_DIR)", () => {
  const root = "/srv/app";
  const dataDir = "/srv/app/data";
  it("refuses DATA_DIR's files however the path is written", () => {
    for (const url of [
      "/data/secrets.json",
      "/data/app.db",
      "/data/app.db-wal?raw",
      "/data/emulator/oauth.json?import",
      "/data",
      "/%64ata/secrets.json",
      "/./data/secrets.json",
      "/assets/../data/secrets.json",
      "/@fs/srv/app/data/secrets.json",
      "/@fs/srv/app/app/../data/app.db",
      "/%E0%A4%A",
    ]) {
      expect(namesDataDirFile(url, root, dataDir), url).toBe(true);
    }
  });
  it("lets the app's own files through", () => {
    for (const url of [
      "/app/root.tsx",
      "/@vite/client",
      "/node_modules/.vite/deps/react.js",
      "/@fs/srv/app/app/root.tsx",
      "/dashboard",
      "/database-tips",
      "/data-export",
    ]) {
      expect(namesDataDirFile(url, root, dataDir), url).toBe(false);
    }
  });
  it("a DATA_DIR outside the project is out of Vite's reach anyway, and still refused through /@fs/", () => {
    expect(namesDataDirFile("/data/secrets.json", root, "/var/lib/ads")).toBe(false);
    expect(namesDataDirFile("/@fs/var/lib/ads/secrets.json", root, "/var/lib/ads")).toBe(true);
  });
});
