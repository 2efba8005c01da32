#!/usr/bin/env bash
# Calibration from sailing (Tests/Calibration/calibration_check.py): learnt from the real logs of the yacht Irene in
# ../shared/fixtures/calibration, errors injected with pynmea2 recovered, bad input refused.
#   Tests/Calibration/calibration-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin calibration-check
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import pynmea2" 2>/dev/null || "$VENV/bin/pip" install --quiet pynmea2
if [ ! -f ../shared/fixtures/calibration/irene-2014-06-20.txt ]; then
    echo "calibration-check: ../shared/fixtures/calibration is absent: the real logs are skipped"
    echo "calibration-check: 0 passed, 0 failed"
    CHECKS_DONE=1
    exit 0
fi
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Calibration/calibration_check.py "${1:-.build/release/telltale}" \
    "$PWD/../shared/fixtures/calibration"
