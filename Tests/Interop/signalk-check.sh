#!/usr/bin/env bash
# Interoperability: Telltale's Signal K server against the specification's own JSON schemas (jsonschema) and a
# WebSocket client (websocket-client), both from PyPI into the interop virtual environment; then the bad clients
# (malformed HTTP, 64 KB headers, a 100 MB frame, a subscribe flood, 200 clients that vanish, a client that never
# reads). The gateway must stay up with bounded memory and keep its NMEA output and tick going
# (Tests/Interop/signalk_check.py).
#   Tests/Interop/signalk-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin signalk-check
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import jsonschema, websocket" 2>/dev/null ||
    "$VENV/bin/pip" install --quiet jsonschema websocket-client
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Interop/signalk_check.py "${1:-.build/release/telltale}" Tests/Interop/signalk-schemas
