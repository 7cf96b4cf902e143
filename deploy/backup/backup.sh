#!/bin/sh
# Cohort's database backups: docker-compose.yml's `backup` service runs this in the postgres image
# (its pg_dump matches the server). Every BACKUP_INTERVAL_S seconds (86400: daily) it writes a
# custom-format dump to BACKUP_DIR (/backups), checks that pg_restore can read it, and keeps the
# BACKUP_KEEP newest (14). The connection comes from libpq's variables: PGHOST, PGUSER, PGDATABASE,
# PGPASSWORD. `backup.sh once` takes one backup and exits (before an upgrade, or from cron).
# Dumps are named cohort-<UTC date and time>.dump, so their names sort by age and say since when
# `npm run stripe:reconcile -- --since` must replay after a restore (deploy/backup/restore.sh).
set -eu

BACKUP_DIR="${BACKUP_DIR:-/backups}"
BACKUP_KEEP="${BACKUP_KEEP:-14}"
BACKUP_INTERVAL_S="${BACKUP_INTERVAL_S:-86400}"

log() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) backup: $*"; }

case "$BACKUP_KEEP" in
  '' | *[!0-9]* | 0) log "BACKUP_KEEP must be a whole number of at least 1, not '$BACKUP_KEEP'"; exit 2 ;;
esac

backup_once() {
  mkdir -p "$BACKUP_DIR"
  name="cohort-$(date -u +%Y-%m-%dT%H%M%SZ).dump"
  partial="$BACKUP_DIR/.$name.partial"
  # A dump is only ever seen complete: written aside, checked, then renamed into place.
  if ! pg_dump --format=custom --no-owner --file="$partial"; then
    rm -f "$partial"
    log "pg_dump failed: no new backup (the older ones are kept)"
    return 1
  fi
  if ! pg_restore --list "$partial" > /dev/null; then
    rm -f "$partial"
    log "the new dump does not read back: discarded"
    return 1
  fi
  mv "$partial" "$BACKUP_DIR/$name"
  log "wrote $BACKUP_DIR/$name ($(wc -c < "$BACKUP_DIR/$name") bytes)"
  # Retention by count: the newest BACKUP_KEEP dumps stay.
  ls -1 "$BACKUP_DIR" | grep -E '^cohort-.*\.dump$' | sort -r | tail -n "+$((BACKUP_KEEP + 1))" |
    while read -r old; do
      rm -f "$BACKUP_DIR/$old"
      log "removed $old (keeping the newest $BACKUP_KEEP)"
    done
}

if [ "${1:-}" = restore ]; then
  shift
  exec /bin/sh "$(dirname "$0")/restore.sh" "$@"
fi
if [ "${1:-}" = once ]; then
  backup_once
  exit $?
fi

log "every ${BACKUP_INTERVAL_S} s into $BACKUP_DIR, keeping $BACKUP_KEEP"
trap 'log "stopped"; exit 0' TERM INT
while :; do
  # A failed backup is logged and tried again at the next interval; the service keeps running.
  backup_once || true
  sleep "$BACKUP_INTERVAL_S" &
  wait $!
done
