#!/usr/bin/env bash
# Hostile input on a running gateway (Tests/Interop/live_fuzz_check.py): mangled NMEA 0183 and NMEA 2000 for a minute,
# the gateway alive throughout, its output true.
#   Tests/Interop/live-fuzz-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin live-fuzz-check
CHECKS_DONE=1
exec python3 Tests/Interop/live_fuzz_check.py "${1:-.build/release/telltale}"
