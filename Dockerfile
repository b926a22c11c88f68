# syntax=docker/dockerfile:1
# The gateway image (every mount: the environment picks which), the demo subgraphs' image, and
# the build stage the bench service runs in. Used by docker-compose.yml and deploy/kubernetes.
#   docker build --target runtime -t fedgw-gateway .      # the gateway: its dist and prod deps only
#   docker build --target subgraphs -t fedgw-subgraphs .  # the demo's subgraphs, nothing of the gateway
#   docker build --target build -t fedgw-build .          # everything, for `pnpm bench`

# --- build: full install (dev deps included) and tsc -----------------------------------------
FROM node:24-bookworm AS build
WORKDIR /app
ENV CI=true
# The repository's pinned pnpm (package.json "packageManager"), installed once so that `pnpm`
# works offline afterwards (the bench service runs `pnpm bench` in this stage).
RUN npm install -g pnpm@10.34.9
# Manifests first: the install layer is reused until a manifest or the lockfile changes.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .pnpmfile.cjs ./
# pnpm applies patches/ (patchedDependencies, ADR 041) at install: without it the install fails.
COPY patches patches
COPY adapters/package.json adapters/
COPY gateway/package.json gateway/
COPY server/package.json server/
COPY subgraphs/package.json subgraphs/
COPY test-support/package.json test-support/
COPY bench/package.json bench/
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm build

# --- prod-deps: the production dependencies of what the gateway runs, same lockfile ------------
# Only the gateway server, with the workspace packages it depends on (--filter-prod follows
# `dependencies`, not devDependencies): no subgraph, no bench (autocannon...), no test-support,
# none of the root's dev tools (pino-pretty among them). bench/test/compose.test.ts runs this line.
FROM node:24-bookworm AS prod-deps
WORKDIR /app
ENV CI=true
RUN npm install -g pnpm@10.34.9
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .pnpmfile.cjs ./
# pnpm applies patches/ (patchedDependencies, ADR 041) at install: without it the install fails.
COPY patches patches
COPY adapters/package.json adapters/
COPY gateway/package.json gateway/
COPY server/package.json server/
RUN pnpm install --frozen-lockfile --prod --filter-prod @fedgw/server...

# --- subgraph-deps: the same for the demo subgraphs ---------------------------------------------
FROM node:24-bookworm AS subgraph-deps
WORKDIR /app
ENV CI=true
RUN npm install -g pnpm@10.34.9
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .pnpmfile.cjs ./
# pnpm applies patches/ (patchedDependencies, ADR 041) at install: without it the install fails.
COPY patches patches
COPY subgraphs/package.json subgraphs/
RUN pnpm install --frozen-lockfile --prod --filter-prod @fedgw/subgraphs...

# --- subgraphs: the demo's subgraphs (docker-compose.yml, components/demo-subgraphs) ------------
FROM node:24-bookworm-slim AS subgraphs
WORKDIR /app
ENV NODE_ENV=production
COPY --from=subgraph-deps /app/node_modules node_modules
COPY --from=subgraph-deps /app/subgraphs/node_modules subgraphs/node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/subgraphs/package.json subgraphs/
COPY --from=build /app/subgraphs/dist subgraphs/dist
# Each subgraph reads its SDL at startup from subgraphs/src/<name>/schema.graphql: the folder
# comes whole (its TypeScript too, a few KB), so a new subgraph needs no line here.
COPY --from=build /app/subgraphs/src subgraphs/src
USER node
EXPOSE 4001 4002 4003
# All of them in one process tree; each service of docker-compose.yml runs one instead.
CMD ["node", "subgraphs/dist/run-all.js"]

# --- runtime: the gateway: compiled JavaScript, production deps, the supergraph --------------
# The default target (the last stage). No subgraph is in it: only what server/dist/main.js loads.
FROM node:24-bookworm-slim AS runtime
# Set by the build (`--build-arg VERSION=1.2.3 --build-arg REVISION=$(git rev-parse HEAD)`),
# shown by `docker inspect` and registries as the OCI annotations.
ARG VERSION=dev
ARG REVISION=unknown
LABEL org.opencontainers.image.title="fedgw-gateway" \
      org.opencontainers.image.description="GraphQL federation gateway (@apollo/gateway on NestJS, Express or Fastify)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.base.name="docker.io/library/node:24-bookworm-slim"
WORKDIR /app
ENV NODE_ENV=production
# node_modules hold pnpm's relative symlinks (workspace packages link to ../adapters etc.),
# so every package keeps its place in the tree.
COPY --from=prod-deps /app/node_modules node_modules
COPY --from=prod-deps /app/adapters/node_modules adapters/node_modules
COPY --from=prod-deps /app/gateway/node_modules gateway/node_modules
COPY --from=prod-deps /app/server/node_modules server/node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/adapters/package.json adapters/
COPY --from=build /app/adapters/dist adapters/dist
COPY --from=build /app/gateway/package.json gateway/
COPY --from=build /app/gateway/dist gateway/dist
COPY --from=build /app/server/package.json server/
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/supergraph.graphql ./
# An operator's plugin module mounted anywhere (/etc/gateway/config, docs/plugins.md) imports
# `@fedgw/gateway/plugin-sdk`: Node looks for it in every folder's node_modules up to /, so one
# link at the top makes it resolve to this gateway's own copy (the same module instances).
RUN mkdir -p /node_modules/@fedgw && ln -s /app/gateway /node_modules/@fedgw/gateway
USER node
# 4000: GraphQL, /health, /ready. 9464: /metrics on its own listener when METRICS_PORT=9464
# (deploy/kubernetes/deployment.yaml), so Prometheus scrapes a port clients never reach.
EXPOSE 4000 9464
# Docker's (and Compose's) own view of the process: /health answers once the gateway listens,
# on GATEWAY_LISTEN_PORT (4000 unless set; the former PORT still read). Kubernetes ignores it and uses the Deployment's probes.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.GATEWAY_LISTEN_PORT || process.env.PORT || 4000}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# GATEWAY_RUNTIME / GATEWAY_ADAPTER pick the mount.
CMD ["node", "server/dist/main.js"]
