#!/usr/bin/env bash
# Weather routing's figures (Benchmarks/routing_bench.py): a 200 NM coastal passage through 72 h of GRIB at 0.25°,
# x86 and arm64 under qemu-user when `make pi` has built it, and the router's peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f .build/basemap/basemap-f.ttbm ] || { echo "no base map: make basemap" >&2; exit 1; }
ARM=()
[ -x .build-pi/arm64/telltale ] && ARM=(.build-pi/arm64/telltale "$PWD/.build-pi/arm64/sysroot")
exec python3 Benchmarks/routing_bench.py .build/release/telltale Fixtures/demo-voyage/polar.csv .build/basemap "${ARM[@]}"
