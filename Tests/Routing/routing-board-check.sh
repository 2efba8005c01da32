#!/usr/bin/env bash
# Weather routing on board (Tests/Routing/routing_board_check.py): a real gateway with the Brittany forecast plans
# through /telltale/v1/routing in the router's own process, keeps the route, follows it, plans again on a new
# forecast; the panel's Weather route tool in chromium.
#   Tests/Routing/routing-board-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin routing-board-check
/usr/bin/python3 -c "import eccodes" 2>/dev/null || { fail "Debian's python3-eccodes is missing (make test-deps)"; exit 1; }
[ -f .build/basemap/basemap-f.ttbm ] || { fail "no base map: make basemap"; exit 1; }
browser_ready
# The pilot's part reads the bus with PyPI's nmea2000 (the autopilot check's pin).
"$VENV/bin/python" -c "import nmea2000" 2>/dev/null || "$VENV/bin/pip" install --quiet "nmea2000==2026.10.3"
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Routing/routing_board_check.py "${1:-.build/release/telltale}" \
    "$PWD/Fixtures/demo-voyage/polar.csv" "$PWD/.build/basemap"
