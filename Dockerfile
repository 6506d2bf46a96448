# Ads AI Manager: the same commands as the README (`npm ci`, `npm run build`, `npm start`).
# No `# syntax=` line on purpose: it makes BuildKit fetch a frontend image from Docker Hub, and the
# built-in frontend has everything used here, so the image also builds offline (README, "Deploy with Docker").
# Behind a proxy that re-signs TLS, hand its CA to `npm ci` as a build secret (build stage only):
#   docker build --secret id=build_ca,src=/path/to/proxy-ca.pem -t ads-ai-manager .

FROM node:22-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary is reachable, against the headers the
# Node image carries (no download of them either).
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=build_ca \
    if [ -s /run/secrets/build_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/build_ca; fi \
    && npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
RUN groupadd --system app && useradd --system --gid app --no-create-home --home-dir /nonexistent app \
    && mkdir -p /data && chown app:app /data && chmod 700 /data
# The application belongs to root and is only readable by the user that runs it: a compromised
# process cannot rewrite the code it runs. Only /data (the volume) is writable.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/scripts ./scripts
USER app
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
# node itself is PID 1 and gets SIGTERM (through `npm start` the signal may not reach it): it
# stops accepting, finishes in-flight requests and applies (SHUTDOWN_TIMEOUT_SECONDS), exits.
CMD ["node", "build/server.js"]
