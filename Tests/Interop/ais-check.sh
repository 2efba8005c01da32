#!/usr/bin/env bash
# Telltale's AIS decoding against pyais from PyPI (Tests/Interop/ais_check.py says what is compared): the project's
# own Fixtures/ais/targets.nmea (every type Telltale reads, and broken lines), and AvNav's real recording from
# ../shared/fixtures when it is there (skipped, saying so, when it is not).
#   Tests/Interop/ais-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin ais-check
BIN=${1:-.build/release/telltale}
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import pyais, jsonschema" 2>/dev/null || "$VENV/bin/pip" install --quiet "pyais==3.3.1" jsonschema
FILES=(Fixtures/ais/targets.nmea)
SHARED=../shared/fixtures/20160815.nmea
if [ -f "$SHARED" ]; then FILES+=("$SHARED"); else echo "ais-check: $SHARED is absent: only the project's own fixture is compared (skipped)"; fi
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Interop/ais_check.py "$BIN" "${FILES[@]}"
