#!/usr/bin/env bash
# Set-up command 2 of 2: builds if needed and runs every test (ctest over the GoogleTest suite).
# .ci/run calls exactly this. GPU tests are not here: they live in tests/gpu/ and run on a CUDA
# machine; their recorded results are fixtures these tests check.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export ILINT_TEST_DEPS=1
"$root/scripts/build.sh"
if [ -x "$root/scripts/install-test-deps.sh" ]; then "$root/scripts/install-test-deps.sh"; fi
cd "${ILINT_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "$(nproc)"
