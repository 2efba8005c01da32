#!/usr/bin/env bash
# Regenerates the demo voyage from route.gpx with the project's own simulator (seed 1), and the expected replay
# output beside it (route, IMU, over-heel alarm: replay.toml). Run from the repository root after
# `swift build -c release`:
#   Fixtures/demo-voyage/make.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=.build/release/telltale
DIR=Fixtures/demo-voyage
"$BIN" simulate --route "$DIR/route.gpx" --output "$DIR" --seed 1
"$BIN" replay --fast --tag-time --computed-only --config "$DIR/replay.toml" --imu "$DIR/imu.csv" \
    "$DIR/voyage.nmea" > "$DIR/expected.nmea"
