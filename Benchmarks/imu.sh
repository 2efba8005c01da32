#!/usr/bin/env bash
# IMU sample cost on the gateway's side (issue: motion sensing, one filter update at most 1 microsecond without
# allocation): a driver's burst read and scaling on a register model of the ICM-20948, the axis map and one
# attitude filter update; then heap allocations counted under valgrind on N and 2N samples.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/telltale-bench
echo "== IMU sample: read, scale, remap, filter"
"$BIN" imu --samples 2000000
. Benchmarks/heap.sh
if heap_ready "$BIN"; then
    a=$(heap_allocations imu --samples 10000)
    b=$(heap_allocations imu --samples 20000)
    echo "10000 samples: $a allocations; 20000 samples: $b allocations; per extra sample: $(( b - a )) / 10000"
fi
