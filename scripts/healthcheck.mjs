// The container's health check (Dockerfile HEALTHCHECK, compose.yaml): the server on its own port,
// through the loopback interface, answers its health endpoint within 4 s.
const port = process.env.PORT || "3000";
fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
