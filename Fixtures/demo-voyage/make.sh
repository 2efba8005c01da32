#!/usr/bin/env bash
# Regenerates the demo voyage from route.gpx with the project's own simulator (seed 1; polar.csv is its boat's
# polar, which the simulator writes and sails to; a 5-minute start sequence from the first sentence, across the
# line it writes as line.gpx), the expected replay output
# beside it (route, IMU, over-heel alarm: replay.toml), and the start of its Signal K delta stream. Run from the
# repository root after `swift build -c release`:
#   Fixtures/demo-voyage/make.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=.build/release/telltale
DIR=Fixtures/demo-voyage
"$BIN" simulate --route "$DIR/route.gpx" --output "$DIR" --seed 1 --start 300
"$BIN" replay --fast --tag-time --computed-only --config "$DIR/replay.toml" --imu "$DIR/imu.csv" --race-start 0 \
    "$DIR/voyage.nmea" > "$DIR/expected.nmea"
# The Signal K delta stream of the same replay: its first 300 deltas (the whole stream is 10 MB).
"$BIN" replay --fast --computed-only --config "$DIR/replay.toml" --imu "$DIR/imu.csv" --race-start 0 \
    --signalk "$DIR/signalk.full.jsonl" "$DIR/voyage.nmea" > /dev/null
head -n 300 "$DIR/signalk.full.jsonl" > "$DIR/expected-signalk.jsonl"
rm "$DIR/signalk.full.jsonl"
