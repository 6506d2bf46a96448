// Serves the bare app the way react-router-serve does: express, compression,
// static assets, the request handler. `node bench/bare/server.mjs <port>`.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";

const here = path.dirname(fileURLToPath(import.meta.url));
const build = await import(path.join(here, "build/server/index.js"));
const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/assets", express.static(path.join(here, "build/client/assets"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(here, "build/client"), { maxAge: "1h" }));
app.all("/{*splat}", createRequestHandler({ build, mode: "production" }));
const port = Number(process.argv[2] ?? 3372);
const server = app.listen(port, "127.0.0.1", () => process.stdout.write(`READY ${port}\n`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
