#!/usr/bin/env bash
# The autopilot read from a real bus (#41): the EV-1/ACU200 recording of ../shared/fixtures/n2k played as the
# gateway's bus; the Autopilot API v2 and steering.autopilot.* against PyPI's nmea2000 (canboat's database) reading
# the same recording; commands refused (501); off-line when the pilot is no longer heard. About 40 s.
#   Tests/Interop/autopilot-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin autopilot-check
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import nmea2000" 2>/dev/null || "$VENV/bin/pip" install --quiet "nmea2000==2026.10.3"
if [ ! -f ../shared/fixtures/n2k/candumpSample3.txt ]; then
    echo "autopilot-check: ../shared/fixtures/n2k is absent: the recorded EV-1 bus is skipped"
    echo "autopilot-check: 0 passed, 0 failed"
    CHECKS_DONE=1
    exit 0
fi
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Interop/autopilot_check.py "${1:-.build/release/telltale}"
