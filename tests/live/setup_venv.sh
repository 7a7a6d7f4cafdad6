#!/usr/bin/env bash
# Makes the live suite's Python: a venv under build/ with torch 2.13.0 (CPU build), numpy and pytest.
# Made once; a stamp records what it holds, so a later run reuses it. Fails (non-zero, with pip's
# reason) when torch cannot be had: the live suite never skips for want of torch.
#
#   tests/live/setup_venv.sh [VENV]      (default build/live-venv; prints the venv's python)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${1:-${ILINT_LIVE_VENV:-$root/build/live-venv}}
want="torch==2.13.0 numpy pytest"
stamp="$venv/.inductor-lint-live"
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  echo "$venv/bin/python"
  exit 0
fi
rm -rf "$venv"
python3 -m venv "$venv"
# shellcheck disable=SC2086
if ! "$venv/bin/pip" install --disable-pip-version-check -q $want >&2; then
  echo "tests/live/setup_venv.sh: could not install $want into $venv" >&2
  exit 1
fi
"$venv/bin/python" -c 'import torch; assert torch.__version__.startswith("2.13.0"), torch.__version__' >&2
echo "$want" > "$stamp"
echo "$venv/bin/python"
