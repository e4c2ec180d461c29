#!/usr/bin/env bash
# Everything CI runs: install what is missing, then type check, lint, unit and database tests
# (PGlite and a PostgreSQL server), build, two instances behind a proxy (tests/scale), and the
# browser tests (JS on, JS off, embedded) with the attacker's walk (tests/security, the
# playwright project `security`; docs/security.md).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$1"; SECONDS=0; }
done_step() { printf '== %s took %ss\n' "$1" "$SECONDS"; }

step setup;     bash scripts/setup-test-env.sh;            done_step setup
step typecheck; npm run -s typecheck;                       done_step typecheck
step lint;      npm run -s lint;                            done_step lint
step vitest;    node_modules/.bin/vitest run;               done_step vitest
step build;     npm run -s build >/dev/null;                done_step build
step scale;     node_modules/.bin/vitest run --config vitest.scale.config.ts; done_step scale
step e2e;       node_modules/.bin/playwright test;          done_step e2e
