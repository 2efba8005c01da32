#!/usr/bin/env bash
# IMU sample cost on the gateway's side (issue: motion sensing, one filter update at most 1 microsecond without
# allocation): a driver's burst read and scaling on a register model of the ICM-20948, the axis map and one
# attitude filter update; then heap allocations counted under valgrind on N and 2N samples.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/telltale
echo "== IMU sample: read, scale, remap, filter"
"$BIN" bench imu --samples 2000000
if command -v valgrind >/dev/null; then
    STRIPPED=$(mktemp)
    objcopy --strip-debug "$BIN" "$STRIPPED"
    allocs() {
        valgrind --tool=memcheck "$STRIPPED" bench imu --samples "$1" 2>&1 \
            | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
    }
    a=$(allocs 10000)
    b=$(allocs 20000)
    echo "10000 samples: $a allocations; 20000 samples: $b allocations; per extra sample: $(( b - a )) / 10000"
else
    echo "valgrind not installed: allocation count skipped (apt-get install valgrind)"
fi
