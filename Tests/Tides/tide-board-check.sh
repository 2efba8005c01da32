#!/usr/bin/env bash
# The tide on board (Tests/Tides/tide_board_check.py): a real gateway replaying an anchorage in Boston Harbor and a
# passage by Turn Point, its Signal K tide paths and currents against an independent predictor over Debian's libtcd,
# the low-water alarm, the panel's Tide tile and the chart's tidal streams in chromium.
#   Tests/Tides/tide-board-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin tide-board-check
HARMONICS=$(ls /usr/share/xtide/harmonics-*.tcd 2>/dev/null | head -n 1 || true)
[ -n "$HARMONICS" ] || { fail "Debian's xtide-data is missing (make deps installs it)"; exit 1; }
browser_ready
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Tides/tide_board_check.py "${1:-.build/release/telltale}" "$HARMONICS"
