#!/usr/bin/env bash
# The largest sizes the configuration takes, on the Pi's builds: `[history] keep_mb = 100000`, `[record]
# rotate_size_mb = 10000`, `[uplink] queue_mb = 4096`. On armhf Swift's `Int` is 32 bits and `Int(4000 * 1_048_576)`
# trapped: `check-config` and the gateway stopped at start, and the panel's settings check stopped a running gateway
# (until 2026-12-03). check-config answers as the desktop's; run starts on them (the history's store opened), records, answers the
# settings check of the uplink's largest queue and a GRIB upload's offset of 2^63 - 1 (refused, 400), and stops
# cleanly on SIGINT. For the ARM builds under qemu (Tests/Pi/qemu-check.sh); any binary works.
#   Tests/Pi/sizes-smoke.sh "RUNNER" BINARY DESKTOP-BINARY
set -uo pipefail
cd "$(dirname "$0")/../.."
RUNNER=$1
BIN=$2
X86=$3
WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export PORT
ok=1
UPLINK='[uplink]
broker = "mqtt://127.0.0.1:1"
queue_mb = 4096'
cat > "$WORK/sizes.toml" <<TOML
status_line = false
state_file = "$WORK/state/state.toml"
[[input]]
name = "demo"
url = "file:$PWD/Fixtures/demo-voyage/voyage.nmea"
loop = true
[history]
keep_mb = 100000
[record]
directory = "$WORK/records"
rotate_size_mb = 10000
[weather]
folder = "$WORK/weather"
[web]
listen = "127.0.0.1:$PORT"
TOML
{ cat "$WORK/sizes.toml"; printf '%s\n' "$UPLINK"; } > "$WORK/check.toml"
# shellcheck disable=SC2086
mine=$($RUNNER "$BIN" check-config "$WORK/check.toml" 2>&1); status=$?
desk=$("$X86" check-config "$WORK/check.toml" 2>&1)
[ "$status" = 0 ] && [ "$mine" = "$desk" ] || { echo "check-config said ($status) $mine, the desktop $desk"; ok=0; }
# shellcheck disable=SC2086
$RUNNER "$BIN" run --config "$WORK/sizes.toml" >/dev/null 2>"$WORK/log" &
PID=$!
. Tests/Pi/http.sh
for _ in $(seq 1 150); do
    http GET /signalk/v1/api/vessels/self/navigation/position > "$WORK/position"
    [ "$(head -n 1 "$WORK/position")" = 200 ] && break
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.2
done
grep -q '"latitude":50.7' "$WORK/position" || { echo "no position: $(head -c 200 "$WORK/position")"; ok=0; }
http PUT /telltale/v1/settings/check "$UPLINK" > "$WORK/check"
[ "$(head -n 1 "$WORK/check")" = 200 ] || { echo "settings check: $(head -c 300 "$WORK/check")"; ok=0; }
http PUT "/telltale/v1/weather/grib?name=a.grb&offset=9223372036854775807&total=100" abc > "$WORK/upload"
[ "$(head -n 1 "$WORK/upload")" = 400 ] || { echo "upload at 2^63 - 1: $(head -c 200 "$WORK/upload")"; ok=0; }
sleep 2
kill -0 "$PID" 2>/dev/null || { echo "the gateway stopped"; ok=0; }
ls "$WORK"/records/telltale-*.nmea >/dev/null 2>&1 || { echo "nothing recorded"; ok=0; }
# The history is kept once the clock is known (two minutes of GNSS time): its store opened at start is what trapped.
[ -d "$WORK/state/history" ] || { echo "no history: $(ls -R "$WORK/state" | head)"; ok=0; }
kill -INT "$PID" 2>/dev/null
wait "$PID" || { echo "did not stop cleanly"; ok=0; }
[ "$ok" = 1 ] || tail -n 5 "$WORK/log"
rm -rf "$WORK"
[ "$ok" = 1 ]
