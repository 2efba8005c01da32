#!/usr/bin/env bash
# Replay benchmark (issue: bench testing): one hour of simulated instrument data (RMC, GGA, VTG 1 Hz; HDG 10 Hz;
# VHW 2 Hz; MWV 5 Hz; DPT 1 Hz; XDR 5 Hz: about 93 600 sentences, more than a typical boat's 35 000) plus 360 000
# IMU samples at 100 Hz, replayed --fast with a route: best of three, end to end (reading, framing, the engine,
# the attitude filter, writing).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/telltale
OUT=Benchmarks/output/hour
mkdir -p "$OUT"
"$BIN" simulate --route Benchmarks/hour-route.gpx --output "$OUT" --duration 3600 2>/dev/null
sentences=$(wc -l < "$OUT/voyage.nmea")
samples=$(( $(wc -l < "$OUT/imu.csv") - 1 ))
best=""
for _ in 1 2 3; do
    start=$(date +%s.%N)
    "$BIN" replay --fast --route Benchmarks/hour-route.gpx --imu "$OUT/imu.csv" "$OUT/voyage.nmea" >/dev/null 2>&1
    end=$(date +%s.%N)
    elapsed=$(python3 -c "print($end - $start)")
    best=$(python3 -c "print(min(float('$elapsed'), float('${best:-1e9}')))")
done
python3 - "$sentences" "$samples" "$best" <<'PY'
import sys
sentences, samples, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
print(f"replay of one hour: {sentences} sentences and {samples} IMU samples in {seconds:.2f} s: "
      f"{sentences / seconds:,.0f} sentences/s and {samples / seconds:,.0f} IMU samples/s end to end")
PY

# Replay memory against log length: 100 000 and 1 000 000 sentences of the instrument mix, --fast, peak resident
# memory of the whole process (logs are read as they play: the growth left is 8 bytes of time per sentence).
"${BIN}-bench" generate --count 100000 "$OUT/mix-100k.nmea"
"${BIN}-bench" generate --count 1000000 "$OUT/mix-1m.nmea"
python3 Benchmarks/processes.py --runs 1 --sentences 100000 "replay 100k" "$BIN replay --fast $OUT/mix-100k.nmea"
python3 Benchmarks/processes.py --runs 1 --sentences 1000000 "replay 1M" "$BIN replay --fast $OUT/mix-1m.nmea"
