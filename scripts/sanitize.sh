#!/usr/bin/env bash
# Builds the analyzer and its tests with AddressSanitizer + UndefinedBehaviorSanitizer
# (-DILINT_SANITIZE=ON, in build-asan/ or $ILINT_ASAN_BUILD_DIR) and runs the whole ctest suite
# under them. Any sanitizer report fails the test that triggered it (UBSan does not recover:
# -fno-sanitize-recover=undefined; ASan aborts on the first error).
#
# Not part of .ci/run: the sanitized build is a second full build of the project (about 3x the
# normal build's time on 2 cores) and the suite runs about 2-3x slower under ASan. Run it before
# merging parser changes:  scripts/sanitize.sh   (extra arguments go to ctest, e.g. -R BadInput)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ILINT_ASAN_BUILD_DIR:-$root/build-asan}"
"$root/scripts/install-deps.sh"
jobs="${ILINT_JOBS:-$(nproc)}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DILINT_SANITIZE=ON >/dev/null
cmake --build "$build" -j "$jobs"
# detect_leaks: the suite must not leak either. halt_on_error: the first report fails the test.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
cd "$build"
ctest --output-on-failure -j "$jobs" "$@"
