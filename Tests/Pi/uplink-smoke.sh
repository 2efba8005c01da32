#!/usr/bin/env bash
# The fleet uplink on a build: `telltale run` sends the demo voyage to Debian's mosquitto (libmosquitto opened at run
# time, driven on the poll loop), and the shore's `telltale fleet` (SHORE: the desktop build, since the shore is its
# own module that the Pi's build leaves out; BINARY when it has it) shows the boat where the voyage is, its history
# batches counted; a record in its queue on disk whose length is past 2^31 cut off. For the ARM builds under qemu
# (Tests/Pi/qemu-check.sh); any binary works.
#   Tests/Pi/uplink-smoke.sh "RUNNER" BINARY [SHORE]
set -uo pipefail
cd "$(dirname "$0")/../.."
RUNNER=$1
BIN=$2
SHORE=${3:-}
command -v mosquitto >/dev/null || { echo "mosquitto is not installed (make test-deps)"; exit 1; }
WORK=$(mktemp -d)
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
BROKER=$(port)
WEB=$(port)
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$BROKER" > "$WORK/mosquitto.conf"
mosquitto -c "$WORK/mosquitto.conf" >/dev/null 2>&1 &
MQ=$!
mkdir -p "$WORK/state" "$WORK/hostile"
# What a broken card may leave in the queue: a whole batch, then a record stating 0x90000000 bytes (past 2^31, no Int
# on armhf): cut back, said, and the rest sent.
python3 Tests/Pi/hostile_32bit.py "$WORK/hostile" && mv "$WORK/hostile/uplink" "$WORK/state/uplink"
cat > "$WORK/uplink.toml" <<TOML
status_line = false
state_file = "$WORK/state/state.toml"
[[input]]
name = "demo"
url = "file:$PWD/Fixtures/demo-voyage/voyage.nmea"
speed = 10
[uplink]
broker = "mqtt://127.0.0.1:$BROKER"
boat = "arm"
batch_seconds = 2
[uplink.rates]
position = 1
wind = 1
TOML
sleep 0.5
if [ -n "$SHORE" ]; then SHORE_CMD=("$SHORE"); else read -r -a SHORE_CMD <<< "$RUNNER $BIN"; fi
"${SHORE_CMD[@]}" fleet --broker "mqtt://127.0.0.1:$BROKER" --listen "127.0.0.1:$WEB" --store "$WORK/fleet.sqlite" >/dev/null 2>"$WORK/fleet.log" &
FLEET=$!
# shellcheck disable=SC2086
$RUNNER "$BIN" run --config "$WORK/uplink.toml" >/dev/null 2>"$WORK/run.log" &
RUN=$!
ok=0
for _ in $(seq 1 60); do
    sleep 1
    python3 - "$WEB" > "$WORK/fleet.json" 2>/dev/null <<'PY' && { ok=1; break; }
import json, sys, urllib.request
boats = json.load(urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/telltale/v1/fleet", timeout=5))["boats"]
boat = next(b for b in boats if b["id"] == "arm")
p = boat["navigation.position"]
assert 50.6 < p["latitude"] < 50.9 and -1.5 < p["longitude"] < -1.1 and boat["samples"] > 0 and boat["online"]
assert len(boat["track"]) > 1 and boat["environment.wind.speedTrue"] > 0
print(json.dumps(boat)[:300])
PY
done
kill -TERM "$RUN" 2>/dev/null; wait "$RUN"; run_status=$?
kill -TERM "$FLEET" 2>/dev/null; wait "$FLEET"
kill "$MQ" 2>/dev/null; wait "$MQ" 2>/dev/null
[ "$ok" = 1 ] || { echo "the fleet never showed the boat:"; tail -n 5 "$WORK/run.log" "$WORK/fleet.log"; }
[ "$run_status" = 0 ] || { echo "run did not stop cleanly ($run_status)"; ok=0; }
grep -q "uplink: connected" "$WORK/run.log" || { echo "the log never said connected"; ok=0; }
grep -q "segment-000000000001.tq: 12 bytes of a torn record cut off" "$WORK/run.log" ||
    { echo "the broken queue's record not said"; ok=0; }
[ "$ok" = 1 ] || cat "$WORK/run.log" | tail -n 20
rm -rf "$WORK"
[ "$ok" = 1 ]
