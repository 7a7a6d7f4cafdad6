#!/usr/bin/env bash
# Set-up command 1 of 2: builds if needed and runs the analyzer on a bundled real capture
# (seed 2: bf16 cumulative_trapezoid on CUDA). Extra arguments go to inductor-lint.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" >/dev/null
set +e
"$root/build/inductor-lint" "$root/fixtures/s2_cuda" "$@"
rc=$?
set -e
echo "(exit code $rc: 1 means findings at or above --fail-on warning)" >&2
exit 0
