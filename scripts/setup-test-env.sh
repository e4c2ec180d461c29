#!/usr/bin/env bash
# Installs what the tests need on a fresh machine: npm packages, Debian's Chromium, a
# PostgreSQL server (the tests start their own throwaway cluster) and dovecot's IMAP server (the
# tests start their own throwaway instance, tests/support/imap-server.ts). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -d node_modules ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm install --no-audit --no-fund
fi

sudo_if_needed() { if [[ "$(id -u)" == 0 ]]; then "$@"; else sudo "$@"; fi; }
missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
[[ -x /usr/sbin/dovecot ]] || missing+=(dovecot-imapd)
if (( ${#missing[@]} )); then
  echo "Installing ${missing[*]} from Debian's packages"
  sudo_if_needed apt-get update -qq
  DEBIAN_FRONTEND=noninteractive sudo_if_needed apt-get install -y -qq "${missing[@]}" >/dev/null
fi
