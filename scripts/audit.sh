#!/usr/bin/env bash
# Dependency audit (npm run audit): the packages the server runs with (devDependencies left
# out), failing on any high or critical advisory. It needs the registry's advisory service;
# where that does not answer (the development machines of this project reach the registry
# only for installs, and the audit endpoint refuses), this says so and exits 2, so "no answer"
# is never read as "no findings". Not part of `npm test` for that reason.
set -uo pipefail
cd "$(dirname "$0")/.."

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
# --loglevel=warn: under `npm run -s` npm passes its silence on, and the advisory service's refusal
# would not be printed at all (an empty answer that exits 1).
npm audit --omit=dev --audit-level=high --loglevel=warn 2>&1 | tee "$out"
status=${PIPESTATUS[0]}

if [ "$status" -eq 0 ]; then
  echo "audit: no high or critical advisories in the production dependencies."
  exit 0
fi
# Findings only when the report lists them; any other failure means nothing was checked.
if grep -qiE '(high|critical) severity' "$out"; then
  echo
  echo "audit: high or critical advisories found in the production dependencies (listed above)."
  echo "       Update the package (npm audit fix --omit=dev, or a newer version in package.json)."
  exit 1
fi
echo
echo "audit: NOT DONE. The registry's advisory service did not answer (see the lines above);"
echo "       nothing was checked. Run 'npm run audit' on a machine that reaches it (CI with"
echo "       registry access, or a developer's machine) before a release."
exit 2
