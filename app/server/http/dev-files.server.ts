import path from "node:path";

/**
 * `npm run dev` hands requests to Vite's middleware, which serves any file
 * under the project root (and `/@fs/<absolute path>` inside it). The default
 * DATA_DIR (`./data`) is under the root: `/data/secrets.json` and
 * `/data/app.db` answered 200, enough to forge a session cookie (issue 25
 * point 9). A request whose path names a file inside DATA_DIR, either way, is
 * refused before Vite sees it.
 */
export function namesDataDirFile(urlPath: string, root: string, dataDir: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split("?")[0]);
  } catch {
    // Undecodable: Vite would refuse it too; refusing it here costs nothing.
    return true;
  }
  const inside = (file: string) => {
    const relative = path.relative(path.resolve(dataDir), file);
    return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
  };
  const underRoot = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  const rawFs = decoded.startsWith("/@fs/") ? path.resolve(decoded.slice("/@fs".length)) : null;
  return inside(underRoot) || (rawFs !== null && inside(rawFs));
}
