#!/usr/bin/env bash
# Installs what the report tests need beyond the C++ toolchain: Debian's chromium (headless
# browser for the HTML report test) and the node packages of tests/browser (the SARIF 2.1.0 JSON
# schema shipped in @microsoft/sarif-multitool-linux, the ajv validator, playwright-core to drive
# chromium). Idempotent; safe to run on every CI run. Needs root for apt-get (CI runs as root).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
  else
    echo "install-test-deps: chromium is missing and this is not root; the browser test will skip" >&2
  fi
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq nodejs npm >/dev/null
  else
    echo "install-test-deps: node/npm are missing and this is not root; SARIF schema and browser tests will skip" >&2
    exit 0
  fi
fi
cd "$here/tests/browser"
# npm ci installs exactly package-lock.json; a stamp of the lock's hash skips a reinstall.
lock_sum="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ "$(cat node_modules/.ilint-lock-sha256 2>/dev/null || true)" != "$lock_sum" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > node_modules/.ilint-lock-sha256
fi
echo "install-test-deps: chromium $(command -v chromium || echo missing), node $(node --version), tests/browser/node_modules ready"
