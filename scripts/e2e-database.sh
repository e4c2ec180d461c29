#!/usr/bin/env bash
# Creates a fresh database on the test PostgreSQL server for one e2e run and prints its URL.
set -euo pipefail
admin="$(bash "$(dirname "$0")/pg-test-server.sh")"
name="p2p_e2e_$(date +%s)_$$"
psql -q "$admin" -c "create database $name" >/dev/null
echo "${admin%/*}/$name"
