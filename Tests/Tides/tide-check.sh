#!/usr/bin/env bash
# Tides and tidal currents through `telltale tide` (Tests/Tides/tide_check.py): NOAA's published predictions, an
# independent predictor over Debian's libtcd, the command line's names and places, a harmonics file of a sailor's own
# (written by libtcd), broken files.
#   Tests/Tides/tide-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin tide-check
HARMONICS=$(ls /usr/share/xtide/harmonics-*.tcd 2>/dev/null | head -n 1 || true)
[ -n "$HARMONICS" ] || { fail "Debian's xtide-data is missing (make deps installs it)"; exit 1; }
[ -e /usr/lib/libtcd.so.0 ] || [ -n "$(ldconfig -p | grep libtcd.so.0)" ] || { fail "Debian's libtcd0 is missing (make test installs it)"; exit 1; }
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import geographiclib" 2>/dev/null || "$VENV/bin/pip" install --quiet geographiclib
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Tides/tide_check.py "${1:-.build/release/telltale}" "$HARMONICS"
