#!/usr/bin/env bash
# Weather routing through `telltale route plan` (Tests/Routing/routing_check.py): a forecast written with ecCodes over
# southern Brittany, the coast as GMT reads GSHHG, the routes sailed again independently and searched by brute force,
# the departure window, what must be refused.
#   Tests/Routing/routing-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin routing-check
command -v gmt >/dev/null || { fail "GMT is missing (make test-deps installs gmt)"; exit 1; }
/usr/bin/python3 -c "import eccodes" 2>/dev/null || { fail "Debian's python3-eccodes is missing (make test-deps)"; exit 1; }
[ -f .build/basemap/basemap-f.ttbm ] || { fail "no base map: make basemap"; exit 1; }
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import gpxpy" 2>/dev/null || "$VENV/bin/pip" install --quiet gpxpy
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Routing/routing_check.py "${1:-.build/release/telltale}" Fixtures/demo-voyage/polar.csv \
    .build/basemap
