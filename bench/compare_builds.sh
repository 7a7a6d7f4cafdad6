#!/usr/bin/env bash
# Compares what two builds of inductor-lint say about every capture the tests read: the text,
# JSON, SARIF and HTML reports and --dump-model, byte for byte. A refactoring that must keep every
# output the same is checked with it:
#
#   bench/compare_builds.sh OLD_BINARY NEW_BINARY [OUT_DIR]
#
# Captures: fixtures/*/ (those with a torch_compile_debug folder), and the unpacked archives of
# fixtures/versions and fixtures/forms in the build folder of NEW_BINARY (build/fixtures-*/);
# each capture's trace/ folder (its TORCH_TRACE log) alone as well.
# Both binaries run from the repository root, so the paths in their outputs are the same.
# Exit status 0 when every output is identical, 1 with the list of differences otherwise.
set -euo pipefail
old=$(readlink -f "$1")
new=$(readlink -f "$2")
out=${3:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(dirname "$new")
cd "$root"
captures=()
for d in fixtures/*/ "$build"/fixtures-*/*/*/; do
  [ -d "$d/torch_compile_debug" ] || continue
  captures+=("${d%/}")
  # The TORCH_TRACE log alone is an input of its own.
  [ -d "$d/trace" ] && captures+=("${d%/}/trace")
done
echo "${#captures[@]} captures, outputs in $out"
run_one() {  # BINARY LABEL CAPTURE
  local bin=$1 label=$2 cap=$3 name
  name=$(echo "$cap" | tr '/' '_')
  mkdir -p "$out/$label"
  for fmt in text json sarif html; do
    "$bin" -j1 "$cap" --format "$fmt" -o "$out/$label/$name.$fmt" >/dev/null 2>&1 || true
  done
  "$bin" -j1 "$cap" --dump-model >"$out/$label/$name.model" 2>/dev/null || true
}
export -f run_one
export out
printf '%s\n' "${captures[@]}" | xargs -P "$(nproc)" -I{} bash -c "run_one '$old' old {}; run_one '$new' new {}"
if diff -rq "$out/old" "$out/new"; then
  echo "identical: $(ls "$out/new" | wc -l) outputs"
else
  exit 1
fi
