#!/usr/bin/env bash
# Attitude accuracy (issue: motion sensing): RMS heel and pitch error after 30 s on a synthetic seaway (rolling
# 12 +- 8 deg, 6 s period plus a faster component, pitching, wave accelerations up to 0.8 m/s^2, gyro bias 0.5 deg/s,
# noise), for Telltale's filter and for x-io's Fusion AHRS (PyPI imufusion, default settings) on the same samples.
# Fails when Telltale's error is over 0.5 deg or not lower than Fusion's.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/telltale-bench
OUT=Benchmarks/output
VENV=.build-interop/fusion
mkdir -p "$OUT"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet imufusion numpy
fi
status=0
for seed in 1 2 3; do
    ours=$("$BIN" attitude --seed "$seed" --trace "$OUT/seaway-$seed.csv")
    theirs=$("$VENV/bin/python" Benchmarks/attitude_fusion.py "$OUT/seaway-$seed.csv" 30)
    echo "seed $seed: $ours"
    echo "seed $seed: $theirs"
    python3 - "$ours" "$theirs" <<'PY' || status=1
import re, sys
def errors(line):
    heel, pitch = re.findall(r"heel error ([0-9.]+) deg, pitch ([0-9.]+)", line)[0]
    return float(heel), float(pitch)
ours, theirs = errors(sys.argv[1]), errors(sys.argv[2])
ok = max(ours) <= 0.5 and ours[0] < theirs[0] and ours[1] < theirs[1]
print("  within 0.5 deg and better than Fusion" if ok else "  FAILS: over 0.5 deg or not better than Fusion")
sys.exit(0 if ok else 1)
PY
done
exit $status
