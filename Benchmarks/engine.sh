#!/usr/bin/env bash
# Engine benchmark (issue: wind and heading derivations in at most 2 microseconds per tick, without allocation).
# Run through `make bench`, which builds release first.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/telltale-bench

echo "== engine tick: every wind and heading derivation, every computed kind enabled"
"$BIN" engine --ticks 2000000
echo "== the same with a learnt calibration applied (bounded to 12° each tick, the uncalibrated derivation beside it)"
"$BIN" engine --ticks 2000000 --calibrated

. Benchmarks/heap.sh
if heap_ready "$BIN"; then
    echo "== heap allocations of the tick (valgrind)"
    a=$(heap_allocations engine --ticks 10000)
    b=$(heap_allocations engine --ticks 20000)
    echo "10000 ticks: $a allocations; 20000 ticks: $b allocations; per extra tick: $(( b - a )) / 10000"
    a=$(heap_allocations engine --ticks 10000 --calibrated)
    b=$(heap_allocations engine --ticks 20000 --calibrated)
    echo "calibrated: 10000 ticks: $a allocations; 20000 ticks: $b allocations; per extra tick: $(( b - a )) / 10000"
fi
