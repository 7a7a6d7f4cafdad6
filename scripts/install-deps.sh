#!/usr/bin/env bash
# Installs the Debian packages inductor-lint builds and tests with. Safe to re-run: it installs
# only what is missing. Needs root (or sudo) on a fresh machine.
set -euo pipefail
pkgs=(cmake g++ make pkg-config libclang-14-dev libclang-cpp14-dev llvm-14-dev clang-14
      nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libre2-dev libgtest-dev libjemalloc-dev)
# Test-only tools: a browser for the HTML report test, node for the SARIF schema check.
if [ "${ILINT_TEST_DEPS:-0}" = 1 ]; then
  pkgs+=(chromium)
  command -v node >/dev/null 2>&1 || pkgs+=(nodejs npm)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
