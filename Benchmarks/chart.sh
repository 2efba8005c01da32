#!/usr/bin/env bash
# Chart figures (Benchmarks/chart_bench.py): the track and AIS table's memory (x86, and arm64 under qemu when
# `make pi` has built it), the chart page's size, its first paint with both cores busy.
set -euo pipefail
cd "$(dirname "$0")/.."
ARM=()
[ -x .build-pi/arm64/telltale ] && ARM=(.build-pi/arm64/telltale "$PWD/.build-pi/arm64/sysroot")
exec .build-interop/venv/bin/python Benchmarks/chart_bench.py .build/release/telltale "${ARM[@]}"
