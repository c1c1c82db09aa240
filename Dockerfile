# syntax=docker/dockerfile:1
# The POS read API: build with dev dependencies, run with production ones only.
#   sh tools/image/build.sh -t pos-read-api   (docker build with REVISION and SOURCE from git)
#   docker run --rm -p 3000:3000 -p 127.0.0.1:9464:9464 --env-file .env pos-read-api
# See docs/operations.md for the configuration and README.md for more commands.

ARG NODE_VERSION=24

# --- build: compile TypeScript, then drop the dev dependencies ---------------------------------
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# argon2, bcrypt and better-sqlite3 ship prebuilt binaries; the toolchain is the fallback when
# none matches the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# Optional dependencies are left out: better-sqlite3-node20 is for Node 20 only (docs/decisions.md, 60).
RUN npm ci --no-audit --no-fund --omit=optional
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
COPY tools ./tools
# Then only what production loads: no dev dependency, no Node 20 SQLite driver, no other
# platform's binaries, no types, maps or sources (tools/image/slim-node-modules.sh).
RUN npm run build && npm prune --omit=dev --omit=optional && npm cache clean --force \
 && sh tools/image/slim-node-modules.sh node_modules \
 && find dist -name '*.map' -delete

# --- runtime: production dependencies and the compiled service, as an unprivileged user ---------
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# NODE_OPTIONS and GLIBC_TUNABLES keep resident memory low under load (docs/performance.md,
# "Memory"): V8 collects before its heap grows to 4x the live set, its young generation stays at
# 2 x 32 MB (Node 24's default is 2 x 64 MB: ~100 MB more resident), and every thread shares one
# malloc arena, so argon2's 19 MiB block is kept once and reused, not once per libuv thread
# (decision 29.14).
ENV NODE_ENV=production \
    APP_ENV=production \
    PORT=3000 \
    MANAGEMENT_PORT=9464 \
    MANAGEMENT_HOST=0.0.0.0 \
    DATA_DIR=/app/data \
    NODE_OPTIONS="--max-old-space-size=512 --max-semi-space-size=32" \
    GLIBC_TUNABLES=glibc.malloc.arena_max=1
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/node_modules ./node_modules
# What production runs: the service, its migrations (and their command line, tools/migrations)
# and the admin CLI (tools/backoffice-admin);
# not the seed generator nor the OpenAPI generator (docs/decisions.md, 23.3.1).
COPY --from=build --chown=root:root /app/dist/ormconfig.js ./dist/ormconfig.js
COPY --from=build --chown=root:root /app/dist/src ./dist/src
COPY --from=build --chown=root:root /app/dist/tools/backoffice-admin ./dist/tools/backoffice-admin
COPY --from=build --chown=root:root /app/dist/tools/migrations ./dist/tools/migrations
COPY --chown=root:root sql ./sql
# The code is read-only for the service; only DATA_DIR (embedded demo database) is writable.
# It runs on a read-only root too (`--read-only`, DATA_DIR a volume or tmpfs: docs/operations.md).
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000 9464
# Liveness only (the process answers): a database outage must not get the container restarted.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.MANAGEMENT_PORT||9464)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself as PID 1 receives SIGTERM and drains (SHUTDOWN_TIMEOUT_MS); no npm in between.
CMD ["node", "dist/src/main.js"]

# What the image is, last so that a new revision rebuilds no other layer. VERSION and LICENSES
# are package.json's (test/operations/dockerfile.e2e-spec.ts keeps them equal); REVISION and
# SOURCE come from the build: `--build-arg REVISION=$(git rev-parse HEAD) --build-arg
# SOURCE=<the repository's URL>` (.ci/container passes both).
ARG VERSION=0.1.0
ARG LICENSES=Apache-2.0
ARG REVISION=unknown
ARG SOURCE=unknown
# Uses the arguments, so that a build with other values misses the layer cache from here on
# (podman's cache keys RUN steps by their arguments, not ENV or LABEL steps).
RUN echo "pos-read-api ${VERSION} ${REVISION} ${LICENSES} ${SOURCE}" > /dev/null
ENV BUILD_REVISION=${REVISION}
LABEL org.opencontainers.image.title="pos-read-api" \
      org.opencontainers.image.description="Read API over point-of-sale back-office data" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="${LICENSES}"
