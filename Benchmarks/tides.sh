#!/usr/bin/env bash
# Tide figures (Benchmarks/tides_bench.py): the predictions against NOAA's for 2026 (events, heights, currents), a
# year of 6-minute predictions for one station (x86, and arm64 under qemu-user when `make pi` has built it), and the
# gateway's memory with the tide on against off.
set -euo pipefail
cd "$(dirname "$0")/.."
HARMONICS=$(ls /usr/share/xtide/harmonics-*.tcd | head -n 1)
ARM=()
[ -x .build-pi/arm64/telltale ] && ARM=(.build-pi/arm64/telltale "$PWD/.build-pi/arm64/sysroot")
exec python3 Benchmarks/tides_bench.py .build/release/telltale "$HARMONICS" "${ARM[@]}"
