#!/usr/bin/env bash
# Regenerates the demo voyage from route.gpx with the project's own simulator (seed 1; polar.csv is its boat's
# polar, which the simulator writes and sails to; a 5-minute start sequence from the first sentence, across the
# line it writes as line.gpx; two ships on AIS, one crossing 150 m ahead 1000 s in, one passing a mile off to port;
# past the last waypoint an anchorage: the anchor down 1440 s in, dragging from 300 s later), the expected replay
# output beside it (route, IMU, alarms, the race timer started with the log and the anchor dropped when the boat
# did: replay.toml), and the start and the end of its Signal K delta stream. Run from the repository root after
# `make release`:
#   Fixtures/demo-voyage/make.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=.build/release/telltale
DIR=Fixtures/demo-voyage
"$BIN" simulate --route "$DIR/route.gpx" --output "$DIR" --seed 1 --start 300 --ship 1000:150 --ship 700:1852:9:-60 \
    --anchor-drop 1440 --anchor-drag 300 --anchor-lie 480
REPLAY=(--fast --computed-only --config "$DIR/replay.toml" --imu "$DIR/imu.csv" --race-start 0 --anchor-drop 1440)
"$BIN" replay "${REPLAY[@]}" --tag-time "$DIR/voyage.nmea" > "$DIR/expected.nmea"
# The Signal K delta stream of the same replay: its first 300 deltas and its last 100 (the whole stream is 30 MB).
"$BIN" replay "${REPLAY[@]}" --signalk "$DIR/signalk.full.jsonl" "$DIR/voyage.nmea" > /dev/null
head -n 300 "$DIR/signalk.full.jsonl" > "$DIR/expected-signalk.jsonl"
tail -n 100 "$DIR/signalk.full.jsonl" > "$DIR/expected-signalk-end.jsonl"
rm "$DIR/signalk.full.jsonl"
