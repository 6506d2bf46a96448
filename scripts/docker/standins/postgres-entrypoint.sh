#!/bin/sh
# The official image's first start, reduced to what compose.yaml uses: an empty PGDATA gets a cluster
# whose superuser is POSTGRES_USER (password POSTGRES_PASSWORD, scram over the network) and a
# database POSTGRES_DB; then PostgreSQL runs in the foreground as PID 1.
set -eu
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
user="${POSTGRES_USER:-postgres}"
db="${POSTGRES_DB:-$user}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 >/dev/null
  rm -f "$pwfile"
  printf "listen_addresses = '*'\n" >> "$PGDATA/postgresql.conf"
  printf "host all all all scram-sha-256\n" >> "$PGDATA/pg_hba.conf"
  if [ "$db" != "postgres" ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    psql -v ON_ERROR_STOP=1 --username="$user" --dbname=postgres -c "CREATE DATABASE \"$db\"" >/dev/null
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
fi
if [ "$1" = "postgres" ]; then shift; exec postgres "$@"; fi
exec "$@"
