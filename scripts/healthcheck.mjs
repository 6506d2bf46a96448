// The container's health check (Dockerfile HEALTHCHECK, compose.yaml): the server on its own port,
// through the loopback interface, says it is ready (/readyz: database reachable, migrations applied)
// within 4 s.
const port = process.env.PORT || "3000";
fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(4000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
