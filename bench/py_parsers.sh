#!/bin/sh
# Cost of the Python-side readers alone (tokenizer, parser, output_code.py / fx_graph_readable.py
# readers; no Clang, no rules), over every such file under PATH (default: fixtures/).
#   bench/py_parsers.sh [build dir] [repeat] [PATH...]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
repeat=${2:-5}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -eq 0 ] && set -- "$here/fixtures"
cmake --build "$build" -j2 --target bench_py_parsers >/dev/null
"$build/bench_py_parsers" --repeat "$repeat" "$@"
