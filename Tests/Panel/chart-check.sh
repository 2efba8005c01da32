#!/usr/bin/env bash
# The chart page in a real browser (Tests/Panel/chart_check.py): an MBTiles file made by the check, the boat on its
# pixel, the track, route, laylines, start line, AIS and anchor drawn, panning and Follow. Screenshots go to
# .build/chart-screenshots.
#   Tests/Panel/chart-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin chart-check
BIN=${1:-.build/release/telltale}
browser_ready
[ -f /usr/share/javascript/leaflet/leaflet.min.js.gz ] || { echo "libjs-leaflet is missing (make deps installs it)"; exit 1; }
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Panel/chart_check.py "$BIN" .build/chart-screenshots
