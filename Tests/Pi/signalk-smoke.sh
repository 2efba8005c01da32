#!/usr/bin/env bash
# `telltale run` with [web] on: the full model answers over HTTP with live values, the instrument panel and its
# history are served, a PUT from loopback is applied, and SIGINT ends it. For the ARM builds under qemu (Tests/Pi/qemu-check.sh); any binary works.
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
TOML
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
kill -INT "$PID"
wait "$PID" || { echo "did not stop cleanly"; ok=0; }
[ "$ok" = 1 ] || tail -n 5 "$WORK/log"
rm -rf "$WORK"
[ "$ok" = 1 ]
