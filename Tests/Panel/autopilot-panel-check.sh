#!/usr/bin/env bash
# The autopilot on the panel in a real browser (#41): the recorded EV-1 pilot's state as the recording says; then a
# pilot behind a Yacht Devices gateway (Tests/Interop/autopilot_bus.py) engaged with a long press, turned, refused,
# put in standby, each confirmed (or not) by the pilot's own state; the alarm when it drops out by itself. Debian's
# chromium through selenium, PyPI's nmea2000 reading the frames. About a minute.
#   Tests/Panel/autopilot-panel-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin autopilot-panel-check
BIN=${1:-.build/release/telltale}
browser_ready
"$VENV/bin/python" -c "import nmea2000" 2>/dev/null || "$VENV/bin/pip" install --quiet "nmea2000==2026.10.3"
if [ ! -f ../shared/fixtures/n2k/candumpSample3.txt ]; then
    echo "autopilot-panel-check: ../shared/fixtures/n2k is absent: the recorded EV-1 bus is skipped"
    echo "autopilot-panel-check: 0 passed, 0 failed"
    CHECKS_DONE=1
    exit 0
fi
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Panel/autopilot_panel_check.py "$BIN"
