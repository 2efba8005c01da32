#!/usr/bin/env bash
# Interoperability: Telltale's Signal K server against the specification's own JSON schemas (jsonschema) and a
# WebSocket client (websocket-client), both from PyPI into the interop virtual environment. The gateway runs the
# demo voyage with a TCP output beside the server, so values can be matched with the NMEA it sends. Then the bad
# clients: malformed HTTP, 64 KB headers, a 100 MB frame, a subscribe flood, 200 clients that vanish, a client that
# never reads. The gateway must stay up with bounded memory and keep its NMEA output and tick going.
#   Tests/Interop/signalk-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${1:-.build/release/telltale}
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import jsonschema, websocket" 2>/dev/null ||
    "$VENV/bin/pip" install --quiet jsonschema websocket-client
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
WEB=$(free_port)
NMEA=$(free_port)
cat > "$WORK/telltale.toml" <<TOML
talker = "II"
route = "$PWD/Fixtures/demo-voyage/route.gpx"
polar = "$PWD/Fixtures/demo-voyage/polar.csv"
status_line = false
state_file = ""

[[input]]
name = "demo-voyage"
url = "file:$PWD/Fixtures/demo-voyage/voyage.nmea"
loop = true
speed = 2

[[output]]
name = "plotter"
url = "tcp://127.0.0.1:$NMEA"

[web]
listen = "127.0.0.1:$WEB"
# Small, so that the client that never reads fills its queue within the check and is dropped.
client_buffer = 16384
TOML
"$BIN" run --config "$WORK/telltale.toml" 2>"$WORK/telltale.log" &
GATEWAY=$!
for _ in $(seq 1 100); do
    python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $WEB)))" && break
    sleep 0.1
done
status=0
"$VENV/bin/python" Tests/Interop/signalk_check.py --web "$WEB" --nmea "$NMEA" --pid "$GATEWAY" \
    --schemas Tests/Interop/signalk-schemas --binary "$BIN" || status=$?
kill -INT "$GATEWAY" 2>/dev/null || true
wait "$GATEWAY" 2>/dev/null || true
# The tick went on through all of it: the gateway's own figure when it stopped.
p99=$(sed -n 's/.*tick lateness p50 [0-9.]* ms, p99 \([0-9.]*\) ms.*/\1/p' "$WORK/telltale.log" | tail -n 1)
if [ -z "$p99" ]; then
    echo "signalk-check: the gateway did not stop cleanly"; tail -n 20 "$WORK/telltale.log"; exit 1
fi
echo "signalk-check: tick lateness p99 $p99 ms through the bad clients"
# Generous for a shared CI machine running the abusive clients beside it; the benchmark reports the real figure.
python3 -c "import sys; sys.exit(0 if float('$p99') < 20 else 1)" || {
    echo "signalk-check: 0 passed, 1 failed (tick lateness p99 $p99 ms)"; exit 1; }
exit $status
