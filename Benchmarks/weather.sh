#!/usr/bin/env bash
# Weather figures (Benchmarks/weather_bench.py): a five-day 0.25-degree GRIB of 1,000 NM square imported (time, peak
# memory; x86, and arm64 under qemu when `make pi` has built it), and the gateway's memory with it on board.
set -euo pipefail
cd "$(dirname "$0")/.."
ARM=()
[ -x .build-pi/arm64/telltale ] && ARM=(.build-pi/arm64/telltale "$PWD/.build-pi/arm64/sysroot")
exec python3 Benchmarks/weather_bench.py .build/release/telltale "${ARM[@]}"
