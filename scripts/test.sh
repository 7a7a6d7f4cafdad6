#!/usr/bin/env bash
# Set-up command 2 of 2: builds if needed and runs every test: ctest over the GoogleTest suite, then
# the wheel (scripts/build-wheel.sh over the same build tree, installed into a fresh venv by
# tests/wheel), then the live suite (tests/live: real programs captured with torch 2.13 on the CPU,
# analyzed and confirmed; its venv is made once under build/live-venv and fails the run if torch
# cannot be had).
# .ci/run calls exactly this. GPU tests are not here: they live in tests/gpu/ and run on a CUDA
# machine; their recorded results are fixtures these tests check.
# ILINT_SKIP_LIVE=1 leaves the live suite out (a quick local loop; CI never sets it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export ILINT_TEST_DEPS=1
"$root/scripts/build.sh"
if [ -x "$root/scripts/install-test-deps.sh" ]; then "$root/scripts/install-test-deps.sh"; fi
build="${ILINT_BUILD_DIR:-$root/build}"
(cd "$build" && ctest --output-on-failure -j "$(nproc)")
if [ "${ILINT_SKIP_LIVE:-0}" = 1 ]; then exit 0; fi
py=$(bash "$root/tests/live/setup_venv.sh")
cd "$root"
wheel=$(ILINT_WHEEL_BUILD_DIR="$build" "$root/scripts/build-wheel.sh" | tail -1)
ILINT_WHEEL="$wheel" PYTHONDONTWRITEBYTECODE=1 "$py" -m pytest -p no:cacheprovider -rA tests/wheel
PYTHONDONTWRITEBYTECODE=1 "$py" -m pytest -p no:cacheprovider -rA tests/live
