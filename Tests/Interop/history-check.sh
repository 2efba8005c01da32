#!/usr/bin/env bash
# Interoperability: the boat's history on the card and the History API v2 (#40): the demo voyage played through the
# gateway, then history/values for several paths, aggregates and resolutions compared with the same aggregates worked
# out from the log by pynmea2; the gateway killed (SIGKILL) mid-write and started again: nothing before the last
# minute lost, nothing corrupt; hostile queries refused; the AIS vessels' tracks against pyais; playback on the stream
# (websocket-client) in order and at the asked rate. pynmea2, pyais, websocket-client from PyPI
# (Tests/Interop/history_check.py). ~2 min.
#   Tests/Interop/history-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin history-check
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import pynmea2, paho.mqtt.client, pyais, websocket" 2>/dev/null \
    || "$VENV/bin/pip" install --quiet pynmea2 paho-mqtt "pyais==3.3.1" websocket-client
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/Interop/history_check.py "${1:-.build/release/telltale}"
