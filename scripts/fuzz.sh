#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.cpp) with clang-14 + ASan + UBSan in build-fuzz/
# (or $ILINT_FUZZ_BUILD_DIR), makes seed corpora from the real captures in fixtures/, and runs
# each target for a bounded time. Prints executions and crashes per target; exits 1 if any
# target crashed. Crash inputs are kept under build-fuzz/fuzz-out/<target>/crash-*; each one
# found so far is a regression test under tests/unit/regressions/.
#
#   scripts/fuzz.sh                 # every target, 60 s each
#   FUZZ_SECONDS=300 scripts/fuzz.sh fuzz_python fuzz_triton
#
# The whole CLI on mutated real captures (crashes and hangs across every stage, Clang included):
#   python3 tests/fuzz/mutate_captures.py --seconds 600
# any file of any fixture, any report format, and -j1 against -j2 (report and stderr the same bytes):
#   python3 tests/fuzz/mutate_captures.py --seconds 600 --any-file --determinism
#
# Environment: FUZZ_SECONDS (per target, default 60), FUZZ_MAX_LEN (bytes, default 8192: at 64 KB
# inputs the sanitized parsers ran at about 10 inputs per second on a loaded 2-core machine),
# FUZZ_JOBS (build parallelism, default nproc).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ILINT_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${FUZZ_SECONDS:-60}"
max_len="${FUZZ_MAX_LEN:-8192}"
if ! command -v clang++-14 >/dev/null || [ ! -d /usr/lib/llvm-14/lib/clang ] ||
   ! ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" != 0 ] && SUDO=sudo
  echo "fuzz: installing clang-14 and libclang-rt-14-dev" >&2
  $SUDO apt-get install -y -qq --no-install-recommends clang-14 libclang-rt-14-dev >/dev/null
fi
"$root/scripts/install-deps.sh"
CC=clang-14 CXX=clang++-14 cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DILINT_FUZZ=ON \
  -DILINT_TESTS=OFF >/dev/null
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in "$root"/tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi
cmake --build "$build" -j "${FUZZ_JOBS:-$(nproc)}" --target "${targets[@]}"

seeds="$build/fuzz-seeds"
python3 "$root/tests/fuzz/make_seeds.py" "$root/fixtures" "$seeds" >/dev/null
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
summary=()
failed=0
for t in "${targets[@]}"; do
  out="$build/fuzz-out/$t"
  corpus="$out/corpus"
  mkdir -p "$corpus" "$seeds/$t"
  log="$out/log.txt"
  echo "fuzz: $t for ${seconds}s" >&2
  set +e
  # New inputs go to corpus/ (kept between runs); seeds are read, never written.
  "$build/fuzz/$t" "$corpus" "$seeds/$t" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$out/" -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  crashes=$(find "$out" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  summary+=("$(printf '| %s | %s | %s | %s | %s |' "$t" "${runs:-?}" "${cov:-?}" "$crashes" "$rc")")
  if [ "$rc" != 0 ] || [ "$crashes" != 0 ]; then
    failed=1
    grep -m3 -E 'ERROR|runtime error|invariant' "$log" >&2 || true
  fi
done
echo "| target | executions | coverage (edges) | crash/leak/timeout files | exit |"
echo "|---|---:|---:|---:|---:|"
printf '%s\n' "${summary[@]}"
exit $failed
