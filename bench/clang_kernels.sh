#!/bin/sh
# Cost per C++ kernel of the Clang reader, on the real CPU captures.
#   bench/clang_kernels.sh [build dir] [repeat] [jobs]
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
repeat=${2:-5}
jobs=${3:-2}
make -C "$build" -j2 bench_clang_kernels >/dev/null
"$build/bench_clang_kernels" --repeat "$repeat" -j "$jobs" "$here"/fixtures/*_cpu* "$here"/fixtures/*_cppwrap
