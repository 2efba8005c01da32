#!/usr/bin/env bash
# Interoperability: Telltale's Signal K server as the crew's apps use it (KIP, Freeboard-SK, WilhelmSK, scripts),
# each expectation taken from the reference server's source and named with it: connections that clean themselves
# (slow-loris and silent sockets, per-address stream limits, pings), the hello and stream parameters, the Course API
# against signalk-server's schemas (Tests/Interop/signalk-course), alarm method and state, request queries, CORS.
# jsonschema and websocket-client from PyPI (Tests/Interop/signalk_apps_check.py). About a minute.
#   Tests/Interop/signalk-apps-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin signalk-apps-check
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import jsonschema, websocket" 2>/dev/null ||
    "$VENV/bin/pip" install --quiet jsonschema websocket-client
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Interop/signalk_apps_check.py "${1:-.build/release/telltale}"
