#!/usr/bin/env bash
# The route editor on the chart in a real browser (#40): a route made by taps on the chart, a point dragged, saved
# as a Signal K route resource, activated and followed by the engine (BWC on TCP), exported as GPX and read back by
# gpxpy (PyPI), one written by gpxpy imported, and a spot marked at the boat. Debian's chromium through selenium.
#   Tests/Panel/route-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin route-check
BIN=${1:-.build/release/telltale}
browser_ready
"$VENV/bin/python" -c "import gpxpy" 2>/dev/null || "$VENV/bin/pip" install --quiet gpxpy
[ -f /usr/share/javascript/leaflet/leaflet.min.js.gz ] || { echo "libjs-leaflet is missing (make deps installs it)"; exit 1; }
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Panel/route_check.py "$BIN"
