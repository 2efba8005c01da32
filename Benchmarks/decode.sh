#!/usr/bin/env bash
# Decode benchmark (issue: codec speed). Run through `make bench`, which builds release first.
#
# 1. Generates a deterministic instrument mix of BENCH_SENTENCES sentences (RMC, GGA, VTG, HDM, VHW, MWV, DPT, XDR).
# 2. Times frame + checksum + typed decode over it (best of 5 passes, file held in memory).
# 3. Times gpsd's gpsdecode on the same file in the same run, when it is installed, and prints the ratio.
# 4. Counts heap allocations of framing alone on N and 2N sentences under valgrind: the difference is what
#    framing allocates per sentence (the target is none).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/telltale
OUT=Benchmarks/output
SENTENCES=${BENCH_SENTENCES:-1500000}
mkdir -p "$OUT"

echo "== generating $SENTENCES sentences"
"$BIN" bench generate --count "$SENTENCES" "$OUT/mix.nmea"
ls -l "$OUT/mix.nmea" | awk '{print $5 " bytes"}'

echo "== telltale: frame, checksum, typed decode"
ours=$("$BIN" bench decode --iterations 5 --json "$OUT/mix.nmea")
echo "$ours"
echo "== telltale: frame and checksum only"
"$BIN" bench decode --iterations 5 --framing-only "$OUT/mix.nmea"

rate=$(echo "$ours" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sentences_per_second"])')
if command -v gpsdecode >/dev/null; then
    echo "== gpsdecode on the same file"
    start=$(date +%s.%N)
    gpsdecode < "$OUT/mix.nmea" > /dev/null
    end=$(date +%s.%N)
    python3 - "$SENTENCES" "$start" "$end" "$rate" <<'PY'
import sys
n, start, end, ours = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
theirs = n / (end - start)
print(f"gpsdecode: {theirs:,.0f} sentences/s; telltale: {ours:,.0f} sentences/s; ratio {ours / theirs:.1f}x")
PY
else
    echo "gpsdecode not installed: no ratio (apt-get install gpsd-clients)"
fi

if command -v valgrind >/dev/null; then
    # valgrind 3.19 cannot read the DWARF the C++ of TOMLKit brings: count on a copy without debug information.
    STRIPPED=$(mktemp)
    objcopy --strip-debug "$BIN" "$STRIPPED"
    echo "== heap allocations of framing (valgrind)"
    head -n 20000 "$OUT/mix.nmea" > "$OUT/n.nmea"
    head -n 40000 "$OUT/mix.nmea" > "$OUT/2n.nmea"
    allocs() {
        valgrind --tool=memcheck "$STRIPPED" bench decode --iterations 1 --framing-only "$1" 2>&1 \
            | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
    }
    a=$(allocs "$OUT/n.nmea")
    b=$(allocs "$OUT/2n.nmea")
    echo "20000 sentences: $a allocations; 40000 sentences: $b allocations; per extra sentence: $(( (b - a) )) / 20000"
else
    echo "valgrind not installed: allocation count skipped (apt-get install valgrind)"
fi
