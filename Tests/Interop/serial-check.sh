#!/usr/bin/env bash
# Serial input through the funnel's raw open, on pseudo-terminals (Tests/Interop/serial_check.py): data flows,
# nothing is echoed back onto the bus, and an adapter unplugged and plugged back under its stable name is found again.
#   Tests/Interop/serial-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 Tests/Interop/serial_check.py "${1:-.build/release/telltale}"
