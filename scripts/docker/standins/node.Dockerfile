# Stand-in for node:22-bookworm-slim where Docker Hub cannot be reached (scripts/docker/base-images.ts):
# Debian's minimal base (debootstrap) plus Node.js and npm as the npm registry ships them, laid out as the
# official image lays them out (/usr/local, headers in /usr/local/include/node, a `node` user 1000, the
# same entrypoint), so the project's Dockerfile builds on it unchanged.
FROM ads-standin/debian:bookworm
ARG NODE_VERSION
ARG NPM_VERSION
ENV NODE_VERSION=${NODE_VERSION}
COPY node/bin/node /usr/local/bin/node
COPY node/include/node /usr/local/include/node
COPY npm /usr/local/lib/node_modules/npm
COPY node-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
    && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
    && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
    && node --version && npm --version
LABEL org.opencontainers.image.description="Stand-in for node:22-bookworm-slim (Node ${NODE_VERSION}, npm ${NPM_VERSION})"
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["node"]
