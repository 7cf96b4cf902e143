#!/bin/sh
# The app image's entry point: `serve` (the default) runs the server, `migrate` applies pending
# database migrations and exits (docker compose run --rm app migrate; the Kubernetes Job), anything
# else runs as given (docker compose run --rm app npm run stripe:check). `exec`: Node is the
# container's process, and gets its signals.
set -e
case "${1:-serve}" in
  serve) exec node dist/server/src/server.js ;;
  migrate) shift; exec node scripts/cli.mjs migrate "$@" ;;
  *) exec "$@" ;;
esac
