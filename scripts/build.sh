#!/usr/bin/env bash
# Configures and builds into build/ (or $ILINT_BUILD_DIR). Installs missing packages first.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ILINT_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${ILINT_BUILD_TYPE:-RelWithDebInfo}" ${ILINT_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)"
