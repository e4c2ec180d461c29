#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the tests (fsync off, on its own port) unless
# TEST_DATABASE_URL is already set, and prints the URL of its admin connection.
set -euo pipefail
if [[ -n "${TEST_DATABASE_URL:-}" ]]; then echo "$TEST_DATABASE_URL"; exit 0; fi

PORT="${TEST_PG_PORT:-54329}"
DIR="${TEST_PG_DIR:-/tmp/p2p-tracker-pg}"
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [[ -z "$BIN" ]]; then echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; fi

as_pg() {
  if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if ! as_pg "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then
  if [[ ! -f "$DIR/PG_VERSION" ]]; then
    mkdir -p "$DIR"
    [[ "$(id -u)" == 0 ]] && chown postgres "$DIR"
    as_pg "$BIN/initdb" -D "$DIR" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
  fi
  as_pg "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w -o "-p $PORT -k /tmp -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c listen_addresses=127.0.0.1" start >/dev/null
fi
echo "postgres://postgres@127.0.0.1:$PORT/postgres"
