#!/usr/bin/env bash
# The offline base map (Tests/Panel/basemap_check.py): `telltale basemap` on Debian's GSHHG files, then the chart in
# chromium at phone size with no chart and no internet, land and sea read pixel by pixel at known places.
# Screenshots go to .build/basemap-screenshots.
#   Tests/Panel/basemap-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin basemap-check
BIN=${1:-.build/release/telltale}
browser_ready
[ -f /usr/share/javascript/leaflet/leaflet.min.js.gz ] || { echo "libjs-leaflet is missing (make deps installs it)"; exit 1; }
[ -f /usr/share/gmt-gshhg/binned_GSHHS_f.nc ] || { echo "GSHHG is missing (make test-deps installs gmt-gshhg-low, -high and -full)"; exit 1; }
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Panel/basemap_check.py "$BIN" .build/basemap-screenshots
