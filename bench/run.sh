#!/usr/bin/env bash
# The benchmark: inductor-lint's full analysis against Python's ast parse and a plain read, on
# each real capture in fixtures/ and on a replicated corpus of ~100k kernels made at bench time.
# Prints a markdown table. See bench/README.md.
#
#   bench/run.sh                         # defaults: 100000 kernels, -j1 and -j2
#   BENCH_KERNELS=20000 bench/run.sh     # smaller corpus
#   bench/run.sh --baseline-bin /tmp/inductor-lint.old   # also time another build on the same sets
#
# Environment: ILINT_BIN (default build/inductor-lint, built if missing), BENCH_DIR (corpus folder,
# default build/bench-corpus, removed afterwards), BENCH_KERNELS, BENCH_REPEAT (fixture runs, median),
# BENCH_CORPUS_REPEAT (corpus runs, median), BENCH_JOBS (default 1,2). Extra arguments go to bench.py.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${ILINT_BIN:-$root/build/inductor-lint}"
if [ ! -x "$bin" ]; then
  "$root/scripts/build.sh" >&2
fi
command -v python3 >/dev/null || { echo "bench: python3 is needed (the reference parse)" >&2; exit 2; }
command -v strace >/dev/null || echo "bench: strace not found; the read floor uses the file names the analyzer reads" >&2
exec python3 "$root/bench/bench.py" --bin "$bin" --fixtures "$root/fixtures" \
  --work "${BENCH_DIR:-$root/build/bench-corpus}" --kernels "${BENCH_KERNELS:-100000}" \
  --repeat "${BENCH_REPEAT:-3}" --corpus-repeat "${BENCH_CORPUS_REPEAT:-1}" --jobs "${BENCH_JOBS:-1,2}" "$@"
