#!/usr/bin/env bash
# GRIB forecasts through Telltale (Tests/Interop/weather_check.py): files written with ecCodes (Debian's
# python3-eccodes) imported and read back against hand-worked values, the right forecast chosen, broken files refused,
# and a running gateway importing a GRIB dropped into its folder and one uploaded from a phone.
#   Tests/Interop/weather-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin weather-check
/usr/bin/python3 -c "import eccodes" 2>/dev/null || { fail "Debian's python3-eccodes is missing (make test installs it)"; exit 1; }
browser_ready
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Interop/weather_check.py "${1:-.build/release/telltale}"
