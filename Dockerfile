# Cohort's images, built from this folder alone.
#   docker build -t cohort .                      the app (the last stage, `runtime`)
#   docker build --target nginx -t cohort-web .   nginx with the built client and nginx.conf
# docker-compose.yml builds both. Node 22 (LTS), the oldest package.json's `engines` allows;
# node:24-bookworm-slim works the same. Base images are pinned to a release: raise them
# deliberately (and `docker compose build --pull`).

# ── deps: every dependency, and the generated Prisma client ───────────────────────────────────────
# Dependencies' install scripts are skipped (no engine downloads, no native builds: nothing here
# needs them); the project's own postinstall, Prisma's generate, runs by hand.
FROM node:22.18.0-bookworm-slim AS deps
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
# compiled into dist/server/src/generated. --omit=optional drops the embedded database (PGlite: the
# image always has DATABASE_URL), the Prisma CLI and TypeScript (optional peers of @prisma/client);
# the browser's libraries (React, Stripe.js) are dev dependencies, bundled into dist/client. Then
# what nothing runs: Prisma's query compilers for other databases (the generated client loads the
# PostgreSQL one only), source maps and type declarations. 158 MB → 60 MB (docs/operating.md,
# "Image size"); then sharp's prebuilt libvips (optional packages, one per platform) is added back
# for this architecture (scripts/install-sharp-native.sh): 19 MB more.
FROM node:22.18.0-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY scripts/install-sharp-native.sh ./scripts/
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
  && sh scripts/install-sharp-native.sh \
  && npm cache clean --force \
  && find node_modules/@prisma/client/runtime -type f -name 'query_compiler_*' \
    ! -name 'query_compiler_fast_bg.postgresql.*' -delete \
  && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' \
    -o -name '*.d.cts' \) -delete

# ── nginx: serves the built client and proxies the API (docker-compose.yml's `nginx`) ─────────────
# nginx.conf is a template the image's entry point renders at start (SERVER_NAME, TLS, the resolver):
# see its head. Without the brotli module here, nginx sends the build's .gz files (gzip_static).
FROM nginx:1.28.0-alpine AS nginx
ENV SERVER_NAME=localhost \
    TLS=off \
    NGINX_RESOLVER=127.0.0.11 \
    NGINX_ENVSUBST_FILTER=^(SERVER_NAME|TLS|NGINX_RESOLVER)$
RUN rm -rf /usr/share/nginx/html/* /etc/nginx/conf.d/default.conf
COPY --from=build /app/dist/client /usr/share/nginx/html
COPY nginx.conf /etc/nginx/templates/default.conf.template
COPY deploy/nginx/tls /etc/nginx/templates/cohort
COPY deploy/nginx/reload-periodically.sh /docker-entrypoint.d/90-reload-periodically.sh

# ── runtime: the app server ───────────────────────────────────────────────────────────────────────
FROM node:22.18.0-bookworm-slim AS runtime
# MALLOC_ARENA_MAX: glibc's default of an arena per thread lets libvips' threads (image uploads)
# fragment the heap to twice the memory; two arenas keep an upload's peak near 200 MB.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    UPLOADS_DIR=/data/uploads \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# The uploaded images' folder, a volume (docker-compose.yml, the Kubernetes deployment): made here
# owned by the app's user, so a new named volume starts writable to it.
RUN mkdir -p /data/uploads && chown node:node /data/uploads
# Owned by root and read-only to the app: it writes nothing to its own folder in production.
COPY --from=prod-deps /app/node_modules ./node_modules
# The built client, the same app built for Node (which draws every page from the content in the
# database), the server; not the source maps.
COPY --from=build /app/dist/client ./dist/client
COPY --from=build /app/dist/ssr ./dist/ssr
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/contract ./dist/contract
COPY package.json ./
COPY scripts/cli.mjs scripts/load-env.mjs scripts/docker-entrypoint.sh ./scripts/
# The shipped content, imported into an empty database at the first start (then the database is
# the content), and the stylesheet whose colours the web manifest takes.
COPY content ./content
COPY client/src/styles.css ./client/src/styles.css
COPY perks ./perks
COPY prisma/migrations ./prisma/migrations
USER node
EXPOSE 3000
# No Node process per check (a whole runtime every 15 s): bash asks /healthz over a plain socket.
# (docker-compose.yml adds a 30 s start period; dockerfilelint 1.8 misreads --start-period.)
HEALTHCHECK --interval=15s --timeout=3s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-3000} && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# Node itself is the process: on SIGTERM the server closes idle connections, finishes in-flight
# requests, closes the database pool and exits, within 2 s under load (10 s at most, then it exits
# anyway; compose's stop_grace_period is 20 s). Pending migrations are applied at start unless
# MIGRATE_ON_START=false. docker-compose.yml adds `init: true` to reap any stray child process.
# `serve` (the default) or `migrate` (apply pending migrations and exit): scripts/docker-entrypoint.sh.
ENTRYPOINT ["/app/scripts/docker-entrypoint.sh"]
CMD ["serve"]
