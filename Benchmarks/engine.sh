#!/usr/bin/env bash
# Engine benchmark (issue: wind and heading derivations in at most 2 microseconds per tick, without allocation).
# Run through `make bench`, which builds release first.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/telltale

echo "== engine tick: every wind and heading derivation, every computed kind enabled"
"$BIN" bench engine --ticks 2000000

if command -v valgrind >/dev/null; then
    # valgrind 3.19 cannot read the DWARF the C++ of TOMLKit brings: count on a copy without debug information.
    STRIPPED=$(mktemp)
    objcopy --strip-debug "$BIN" "$STRIPPED"
    echo "== heap allocations of the tick (valgrind)"
    allocs() {
        valgrind --tool=memcheck "$STRIPPED" bench engine --ticks "$1" 2>&1 \
            | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
    }
    a=$(allocs 10000)
    b=$(allocs 20000)
    echo "10000 ticks: $a allocations; 20000 ticks: $b allocations; per extra tick: $(( b - a )) / 10000"
else
    echo "valgrind not installed: allocation count skipped (apt-get install valgrind)"
fi
