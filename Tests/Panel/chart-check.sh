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
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import selenium" 2>/dev/null || "$VENV/bin/pip" install --quiet selenium
for tool in chromium chromedriver; do
    command -v "$tool" >/dev/null || { echo "$tool is missing (make test installs chromium, chromium-driver)"; exit 1; }
done
[ -f /usr/share/javascript/leaflet/leaflet.min.js.gz ] || { echo "libjs-leaflet is missing (make deps installs it)"; exit 1; }
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Panel/chart_check.py "$BIN" .build/chart-screenshots
