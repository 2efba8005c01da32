#!/usr/bin/env bash
# Interoperability: the Resources API v2 as Freeboard-SK and the crew's scripts use it (#40): routes, waypoints,
# notes and regions made, listed with the specification's filters, read, replaced and deleted, each answer checked
# against signalk-server's resource schemas (Tests/Interop/signalk-resources); a route activated by its href and
# followed by the engine (BWC to its first point on TCP); kept on the card across a restart; hostile bodies and
# queries refused with nothing stored. jsonschema from PyPI (Tests/Interop/resources_check.py). About 30 s.
#   Tests/Interop/resources-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin resources-check
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import jsonschema" 2>/dev/null || "$VENV/bin/pip" install --quiet jsonschema
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Interop/resources_check.py "${1:-.build/release/telltale}"
