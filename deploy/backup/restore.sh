#!/bin/sh
# Restores a dump written by backup.sh into the database libpq's variables name (PGDATABASE on
# PGHOST as PGUSER), replacing what is there. Stop the app first; afterwards, replay what Stripe
# knows since the dump (the command to run is printed at the end). From the compose project:
#   docker compose stop app
#   docker compose run --rm backup restore /backups/cohort-2026-11-22T030000Z.dump
#   docker compose start app
#   docker compose exec app npm run stripe:reconcile -- --since 2026-11-22
set -eu

dump="${1:-}"
if [ -z "$dump" ] || [ ! -f "$dump" ]; then
  echo "usage: restore.sh <dump file> (one of: $(ls -1 "${BACKUP_DIR:-/backups}" 2> /dev/null | grep -E '\.dump$' | tr '\n' ' '))" >&2
  exit 2
fi
database="${PGDATABASE:?PGDATABASE names the database to restore into}"
pg_restore --list "$dump" > /dev/null

echo "restoring $dump into $database on ${PGHOST:-localhost}"
# Connected to the maintenance database: the site's own cannot be dropped while connected to it.
dropdb --maintenance-db=postgres --force --if-exists "$database"
createdb --maintenance-db=postgres "$database"
pg_restore --no-owner --exit-on-error --dbname="$database" "$dump"

# The dump's date, from its name (cohort-2026-11-22T030000Z.dump): a day early is harmless, as the
# reconcile changes nothing it already has.
since="$(basename "$dump" | sed -n 's/^cohort-\([0-9-]*\)T.*/\1/p')"
echo "restored. Now replay what Stripe knows since then (payments, refunds, cancellations):"
echo "  docker compose exec app npm run stripe:reconcile -- --since ${since:-<the dump's date>}"
