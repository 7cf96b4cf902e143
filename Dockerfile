# Cohort's images, built from this folder alone.
#   docker build -t cohort .                      the app (the last stage, `runtime`)
#   docker build --target nginx -t cohort-web .   nginx with the built client and nginx.conf
# docker-compose.yml builds both. Node 22 (LTS); node:24-bookworm-slim works the same.

# ── deps: every dependency, and the generated Prisma client ───────────────────────────────────────
# Dependencies' install scripts are skipped (no engine downloads, no native builds: nothing here
# needs them); the project's own postinstall, Prisma's generate, runs by hand.
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY scripts/prisma-generate.mjs ./scripts/
COPY prisma.config.ts ./
COPY prisma/schema.prisma ./prisma/
RUN npm ci --ignore-scripts --no-audit --no-fund && node scripts/prisma-generate.mjs

# ── build: the client into dist/client, the server and the contract into dist/server, dist/contract ─
FROM deps AS build
COPY . .
RUN npm run build

# ── prod-deps: production dependencies only ───────────────────────────────────────────────────────
# No install scripts: the one that matters (Prisma's generate) ran in deps, and its output is
# compiled into dist/server/src/generated. --omit=optional drops the Prisma CLI and TypeScript, which
# npm would otherwise keep as optional peers of @prisma/client (430 MB of node_modules → 187 MB).
FROM node:22-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
  && npm cache clean --force

# ── nginx: serves the built client and proxies the API (docker-compose.yml's `nginx`) ─────────────
FROM nginx:1.28-alpine AS nginx
RUN rm -rf /usr/share/nginx/html/*
COPY --from=build /app/dist/client /usr/share/nginx/html
COPY nginx.conf /etc/nginx/conf.d/default.conf

# ── runtime: the app server ───────────────────────────────────────────────────────────────────────
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# Owned by root and read-only to the app: it writes nothing to its own folder in production.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY scripts/cli.mjs scripts/docker-entrypoint.sh ./scripts/
# Partner perks: the server reads their descriptions and how each is redeemed at start.
COPY content/perks ./content/perks
COPY perks ./perks
COPY prisma/migrations ./prisma/migrations
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is the process: on SIGTERM the server closes idle connections, finishes in-flight
# requests, closes the database pool and exits, within 2 s under load (10 s at most, then it exits
# anyway; compose's stop_grace_period is 20 s). Pending migrations are applied at start unless
# MIGRATE_ON_START=false. docker-compose.yml adds `init: true` to reap any stray child process.
# `serve` (the default) or `migrate` (apply pending migrations and exit): scripts/docker-entrypoint.sh.
ENTRYPOINT ["/app/scripts/docker-entrypoint.sh"]
CMD ["serve"]
