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

. Benchmarks/heap.sh
if heap_ready "$BIN"; then
    echo "== heap allocations of framing (valgrind)"
    head -n 20000 "$OUT/mix.nmea" > "$OUT/n.nmea"
    head -n 40000 "$OUT/mix.nmea" > "$OUT/2n.nmea"
    a=$(heap_allocations bench decode --iterations 1 --framing-only "$OUT/n.nmea")
    b=$(heap_allocations bench decode --iterations 1 --framing-only "$OUT/2n.nmea")
    echo "20000 sentences: $a allocations; 40000 sentences: $b allocations; per extra sentence: $(( (b - a) )) / 20000"
fi
