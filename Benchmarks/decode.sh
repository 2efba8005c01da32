#!/usr/bin/env bash
# Decode benchmark (issue: codec speed). Run through `make bench`, which builds release first.
#
# 1. Generates a deterministic instrument mix of BENCH_SENTENCES sentences (RMC, GGA, VTG, HDM, VHW, MWV, DPT, XDR).
# 2. In process (telltale-bench decode): frame + checksum + typed decode, and framing alone, the file read through
#    a 1 MB buffer on every pass; the median of 5 passes.
# 3. Whole processes side by side, as a user runs them: `telltale inspect --json FILE` against gpsd's
#    `gpsdecode < FILE`, alternating, 5 runs each, median wall-clock time and peak resident memory of each
#    (Benchmarks/processes.py). That ratio is the one the README reports; the in-process figure flatters.
# 4. Counts heap allocations of framing alone on N and 2N sentences under valgrind: the difference is what
#    framing allocates per sentence (the target is none).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/telltale
BENCH=.build/release/telltale-bench
OUT=Benchmarks/output
SENTENCES=${BENCH_SENTENCES:-1500000}
mkdir -p "$OUT"

echo "== generating $SENTENCES sentences"
"$BENCH" generate --count "$SENTENCES" "$OUT/mix.nmea"
ls -l "$OUT/mix.nmea" | awk '{print $5 " bytes"}'

echo "== in process: frame, checksum, typed decode (median of 5 passes, read through a 1 MB buffer)"
"$BENCH" decode --iterations 5 "$OUT/mix.nmea"
echo "== in process: frame and checksum only"
"$BENCH" decode --iterations 5 --framing-only "$OUT/mix.nmea"

echo "== whole processes: telltale inspect --json against gpsdecode, alternating, 5 runs each"
if command -v gpsdecode >/dev/null; then
    python3 Benchmarks/processes.py --runs 5 --sentences "$SENTENCES" \
        "telltale inspect --json" "$BIN inspect --json $OUT/mix.nmea" \
        "gpsdecode" "gpsdecode < $OUT/mix.nmea"
else
    echo "gpsdecode not installed: no ratio (apt-get install gpsd-clients)"
fi

. Benchmarks/heap.sh
if heap_ready "$BENCH"; then
    echo "== heap allocations of framing (valgrind)"
    head -n 20000 "$OUT/mix.nmea" > "$OUT/n.nmea"
    head -n 40000 "$OUT/mix.nmea" > "$OUT/2n.nmea"
    a=$(heap_allocations decode --iterations 1 --framing-only "$OUT/n.nmea")
    b=$(heap_allocations decode --iterations 1 --framing-only "$OUT/2n.nmea")
    echo "20000 sentences: $a allocations; 40000 sentences: $b allocations; per extra sentence: $(( (b - a) )) / 20000"
fi
