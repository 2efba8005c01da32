#!/usr/bin/env bash
# `telltale run` with [web] on: the full model answers over HTTP with live values, the instrument panel and its
# history are served, a PUT from loopback is applied, a broken base map's numbers past 2^31 are refused (not a trap of
# the 32-bit Int), and SIGINT ends it. For the ARM builds under qemu (Tests/Pi/qemu-check.sh); any binary works.
#   Tests/Pi/signalk-smoke.sh "RUNNER" BINARY
set -uo pipefail
cd "$(dirname "$0")/../.."
RUNNER=$1
BIN=$2
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$WORK/web.toml" <<TOML
route = "$PWD/Fixtures/demo-voyage/route.gpx"
status_line = false
state_file = ""
[[input]]
name = "demo"
url = "file:$PWD/Fixtures/demo-voyage/voyage.nmea"
loop = true
[web]
listen = "127.0.0.1:$PORT"
[chart]
basemap = "$WORK/basemap"
TOML
# A broken base map: the crude file's second offset 0x90000000 (negative as a 32-bit Int), the low one's header
# 65,535 × 65,535 (past 2^31 when multiplied).
mkdir "$WORK/basemap"
python3 - "$WORK/basemap" <<'PY'
import struct, sys
header = lambda letter, minutes, across, count: b"TTBM\x01" + letter + struct.pack("<HHI", minutes, across, count)
with open(sys.argv[1] + "/basemap-c.ttbm", "wb") as f:
    f.write(header(b"c", 10800, 2, 2) + struct.pack("<III", 0, 0x90000000, 4) + b"\x00" * 4)
with open(sys.argv[1] + "/basemap-l.ttbm", "wb") as f:
    f.write(header(b"l", 0xFFFF, 0xFFFF, 2) + b"\x00" * 16)
PY
# shellcheck disable=SC2086
$RUNNER "$BIN" run --config "$WORK/web.toml" >/dev/null 2>"$WORK/log" &
PID=$!
ok=1
. Tests/Pi/http.sh
export PORT
for _ in $(seq 1 100); do
    http GET /signalk/v1/api/vessels/self/navigation/position > "$WORK/position"
    [ "$(head -n 1 "$WORK/position")" = 200 ] && break
    sleep 0.2
done
grep -q '"latitude":50.7' "$WORK/position" || { echo "no position: $(cat "$WORK/position")"; ok=0; }
http GET / > "$WORK/page"
{ [ "$(head -n 1 "$WORK/page")" = 200 ] && grep -q 'type="module" src="/page.js"' "$WORK/page"; } ||
    { echo "no instrument panel at /"; ok=0; }
# The panel's modules are files (Sources/Panel/), each served as it is: the one that reads the history.
http GET /history.js > "$WORK/script"
grep -q 'telltale/v1/history' "$WORK/script" || { echo "no /history.js"; ok=0; }
sleep 2
http GET /telltale/v1/history > "$WORK/history"
grep -q '"roll":\[.*[0-9]' "$WORK/history" || { echo "no heel history: $(head -c 300 "$WORK/history")"; ok=0; }
http PUT /signalk/v1/api/vessels/self/telltale/route/command '{"value":"pause"}' > "$WORK/put"
code=$(head -n 1 "$WORK/put")
[ "$code" = 200 ] || { echo "PUT answered $code"; ok=0; }
for bins in 0 1 0,1; do
    http GET "/charts/.basemap/c/$bins" > "$WORK/bins"
    [ "$(head -n 1 "$WORK/bins")" = 404 ] || { echo "base map bins $bins of a broken file: $(head -c 200 "$WORK/bins")"; ok=0; }
done
http GET /signalk/v1/api/vessels/self/navigation/position > "$WORK/position"
[ "$(head -n 1 "$WORK/position")" = 200 ] || { echo "not answering after the broken base map's bins"; ok=0; }
grep -q 'basemap-l.ttbm is not a base map file' "$WORK/log" || { echo "the broken header not said"; ok=0; }
kill -INT "$PID"
wait "$PID" || { echo "did not stop cleanly"; ok=0; }
[ "$ok" = 1 ] || tail -n 5 "$WORK/log"
rm -rf "$WORK"
[ "$ok" = 1 ]
