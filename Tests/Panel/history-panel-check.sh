#!/usr/bin/env bash
# The panel draws from the history on the card in a real browser (#40): the passage tile's distance, top speed and
# heel against pynmea2's reading of the demo voyage, the wind and heel history tiles past what the page keeps in
# memory, a past day's track on the chart. Debian's chromium through selenium, pynmea2 from PyPI. About 2 minutes.
#   Tests/Panel/history-panel-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin history-panel-check
BIN=${1:-.build/release/telltale}
browser_ready
"$VENV/bin/python" -c "import pynmea2" 2>/dev/null || "$VENV/bin/pip" install --quiet pynmea2
[ -f /usr/share/javascript/leaflet/leaflet.min.js.gz ] || { echo "libjs-leaflet is missing (make deps installs it)"; exit 1; }
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Panel/history_panel_check.py "$BIN"
