#!/usr/bin/env bash
# Alarms live (Tests/Interop/alarm_check.py): raised from what an NMEA input sends, seen on the TCP output (ALR, TXT),
# in Signal K and aloud, acknowledged from the command line and by a plotter's ACK/ACN, cleared.
#   Tests/Interop/alarm-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin alarm-check
CHECKS_DONE=1
exec python3 Tests/Interop/alarm_check.py "${1:-.build/release/telltale}"
