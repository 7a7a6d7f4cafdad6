#!/usr/bin/env bash
# Alternated A/B timing of inductor-lint builds on one corpus, with Python's `ast` parse of the
# same output_code.py files in the same loop: on a noisy machine, only runs taken side by side
# compare. Every other round runs the commands in reverse order (A B python, python B A, ...): a
# command run right after another large process (Python's parse of the whole corpus) is slower,
# whichever command it is, so a fixed order would favour the one that comes first. The page
# cache is warmed before every run. Prints each run's wall time, then the min and median per
# command.
#
#   bench/ab.sh CORPUS ROUNDS BIN...        # e.g. bench/ab.sh build/bench-corpus/triton 5 old/inductor-lint build/inductor-lint
#
# CORPUS is a folder of compile folders (a corpus made by bench/make_corpus.py, or any capture).
# Environment: J (threads for inductor-lint, default 1).
set -euo pipefail
[ $# -ge 3 ] || { sed -n 2,10p "$0"; exit 2; }
corpus=$1 rounds=$2
shift 2
py='import ast, os, sys
for dp, dn, fn in os.walk(sys.argv[1]):
    if "output_code.py" in fn:
        with open(os.path.join(dp, "output_code.py"), encoding="utf-8", errors="replace") as f:
            ast.parse(f.read())'
declare -A times
t=$(mktemp)
trap 'rm -f "$t"' EXIT
order=("$@" python)
reversed=()
for ((i = ${#order[@]} - 1; i >= 0; i--)); do reversed+=("${order[$i]}"); done
for round in $(seq "$rounds"); do
  if ((round % 2)); then this_round=("${order[@]}"); else this_round=("${reversed[@]}"); fi
  for b in "${this_round[@]}"; do
    find "$corpus" -type f -print0 | xargs -0 cat >/dev/null
    if [ "$b" = python ]; then
      /usr/bin/time -o "$t" -f "%e" python3 -c "$py" "$corpus"
    else
      /usr/bin/time -o "$t" -f "%e" "$b" "$corpus" --format json -o /dev/null -j"${J:-1}" --fail-on never >/dev/null 2>&1
    fi
    times[$b]="${times[$b]:-} $(cat "$t")"
  done
done
for b in "$@" python; do
  sorted=$(tr ' ' '\n' <<<"${times[$b]}" | grep . | sort -n)
  echo "$b:${times[$b]} | min $(head -1 <<<"$sorted") median $(sed -n "$(( (rounds + 1) / 2 ))p" <<<"$sorted")"
done
