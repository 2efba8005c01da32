#!/usr/bin/env bash
# Calibration learnt on board (Tests/Calibration/calibration_board_check.py): a real gateway keeping a day of Irene's
# log in its history, /telltale/v1/calibration learning, applying and undoing, the settings page in chromium.
#   Tests/Calibration/calibration-board-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin calibration-board-check
LOG=../shared/fixtures/calibration/irene-2014-06-20.txt
if [ ! -f "$LOG" ]; then
    echo "calibration-board-check: ../shared/fixtures/calibration is absent: the real log is skipped"
    echo "calibration-board-check: 0 passed, 0 failed"
    CHECKS_DONE=1
    exit 0
fi
browser_ready
# The morning-after part reads the ground's speed with pynmea2 (calibration_log_steps), as calibration-check does: the
# board check installs it too rather than count on running after that check.
"$VENV/bin/python" -c "import pynmea2" 2>/dev/null || "$VENV/bin/pip" install --quiet pynmea2
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Calibration/calibration_board_check.py "${1:-.build/release/telltale}" "$PWD/$LOG"
