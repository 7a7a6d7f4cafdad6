#!/usr/bin/env bash
# Builds the analyzer and its tests with ThreadSanitizer (in build-tsan/ or $ILINT_TSAN_BUILD_DIR)
# and looks for data races where the analyzer runs threads: the CLI over every fixture at once
# at -j2, -j3 and -j auto (folders walked, compiles parsed and C++ kernels read on threads, the Dynamo
# logs read beside the C++ kernels, rules side by side, the JSON report on threads), each C++
# fixture alone at -j2, and the tests of what runs on threads (a walk whose threads join
# midway among them). Exits non-zero on any report, or when the reports of the three differ.
#
# Not part of .ci/run: a third full build of the project. Run it after changing what runs on
# threads:  scripts/tsan.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ILINT_TSAN_BUILD_DIR:-$root/build-tsan}"
"$root/scripts/install-deps.sh"
jobs="${ILINT_JOBS:-$(nproc)}"
# jemalloc off: ThreadSanitizer replaces the allocator.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DILINT_JEMALLOC=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
  -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread -DCMAKE_MODULE_LINKER_FLAGS=-fsanitize=thread >/dev/null
cmake --build "$build" -j "$jobs" --target inductor-lint ilint_clang_plugin ilint-prelude-pch ilint_tests
export TSAN_OPTIONS="halt_on_error=1:exitcode=66${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fixtures=("$root"/fixtures/*/)
for j in 2 3 auto; do
  "$build/inductor-lint" "${fixtures[@]}" --format json -o "$out/j$j.json" --fail-on never -j$j
done
cmp "$out/j2.json" "$out/j3.json"
cmp "$out/j2.json" "$out/jauto.json"
for f in "$root"/fixtures/*cpu* "$root"/fixtures/stale_rms_norm; do
  "$build/inductor-lint" "$f" --format json -o /dev/null --fail-on never -j2
done
"$build/ilint_tests" --gtest_filter='DynamoModel.*:ParallelFor.*:FittedJobs.*:MutationRules.Findings*:ClangWrapperBatch.*:ClangBatch.*:Ingest*'
echo "tsan: no data race reported"
