#!/usr/bin/env bash
# Creates a fresh database on the test PostgreSQL server for one e2e run and prints its URL.
# Databases of runs older than an hour are dropped (their names carry their creation time).
set -euo pipefail
admin="$(bash "$(dirname "$0")/pg-test-server.sh")"
now=$(date +%s)
for old in $(psql -qtA "$admin" -c "select datname from pg_database where datname ~ '^p2p_(e2e|test)_[0-9]+_'"); do
  created=$(echo "$old" | sed -E 's/^p2p_(e2e|test)_([0-9]+)_.*/\2/')
  (( ${#created} > 10 )) && created=$(( created / 1000 ))
  if (( now - created > 3600 )); then psql -q "$admin" -c "drop database if exists $old with (force)" >/dev/null 2>&1 || true; fi
done
name="p2p_e2e_${now}_$$"
psql -q "$admin" -c "create database $name" >/dev/null
echo "${admin%/*}/$name"
