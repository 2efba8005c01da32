#!/usr/bin/env bash
# Calibration figures (#50) on the real logs of the yacht Irene (../shared/fixtures/calibration): learnt on the days
# before, judged on the days held out (the Classique Rothschild, 27 to 29 June 2014): the tack and gybe bias and the
# median true wind direction jump, raw (the boat's own MWV T), uncalibrated and calibrated, and how far it moves the
# computed true wind angle and heading; the same learnt with 27 June's morning too (the log changed overnight: a
# provisional step) and judged on the days after; then every day judged by
# the calibration learnt on all the others (Benchmarks/calibration_crossval.py: 76 tacks instead of 25), and by the
# one learnt on the days before it (`--before`), and as `auto` would have applied it day after day; the time to
# learn from every day (x86, and arm64 under qemu-user when `make pi` has built it).
set -euo pipefail
cd "$(dirname "$0")/.."
F=../shared/fixtures/calibration
[ -d "$F" ] || { echo "calibration: $F is absent"; exit 0; }
BIN=.build/release/telltale
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
LEARN=("$F"/irene-2013-*.txt "$F"/irene-2014-06-1*.txt "$F"/irene-2014-06-2[05].txt)
HELD=("$F"/irene-2014-06-2[789]*.txt)
echo "== learnt on ${#LEARN[@]} logs (Flensburg 2013, Lake Geneva 11 to 25 June 2014)"
"$BIN" calibrate sailing "${LEARN[@]}" --output "$WORK/calibration.toml"
echo "== judged on ${#HELD[@]} logs held out (27 to 29 June 2014)"
"$BIN" calibrate sailing "${HELD[@]}" --judge "$WORK/calibration.toml" | grep -E "tacks:|gybes:|calibration:"
echo "== how far it moves the computed true wind angle and heading on those days (Benchmarks/calibration_bound.py)"
python3 Benchmarks/calibration_bound.py "$BIN" "$WORK/calibration.toml" "${HELD[@]}"
AFTER=("$F"/irene-2014-06-27-b.txt "$F"/irene-2014-06-2[89].txt)
echo "== learnt on the same and 27 June's morning (irene-2014-06-27-a: the log changed overnight), judged on the days after"
"$BIN" calibrate sailing "${LEARN[@]}" "$F"/irene-2014-06-27-a.txt --output "$WORK/morning.toml" \
    | grep -E "speed_factor|on the newest day"
"$BIN" calibrate sailing "${AFTER[@]}" --judge "$WORK/morning.toml" | grep -E "tacks:|gybes:|calibration:"
python3 Benchmarks/calibration_bound.py "$BIN" "$WORK/morning.toml" "${AFTER[@]}"
echo "== the same days judged by the 11 days' calibration alone"
"$BIN" calibrate sailing "${AFTER[@]}" --judge "$WORK/calibration.toml" | grep -E "tacks:|gybes:"
python3 Benchmarks/calibration_bound.py "$BIN" "$WORK/calibration.toml" "${AFTER[@]}"
ALL=("$F"/irene-*.txt)
echo "== every day judged by the calibration learnt on all the other days (13 days, 15 logs)"
python3 Benchmarks/calibration_crossval.py "$BIN" "${ALL[@]}"
echo "== every day judged by the calibration learnt on the days before it (the boat's history as she sailed it)"
python3 Benchmarks/calibration_crossval.py --before "$BIN" "${ALL[@]}"
echo "== every day as \`auto\` would have sailed it, applies after applies (Benchmarks/calibration_auto_days.py)"
python3 Benchmarks/calibration_auto_days.py "$BIN" "${ALL[@]}"
start=$(date +%s.%N)
"$BIN" calibrate sailing "${ALL[@]}" > /dev/null
echo "time to learn from every log (x86): $(echo "$(date +%s.%N) - $start" | bc) s"
if [ -x .build-pi/arm64/telltale ]; then
    start=$(date +%s.%N)
    qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH="$PWD/.build-pi/arm64/sysroot/usr/lib/aarch64-linux-gnu" \
        .build-pi/arm64/telltale calibrate sailing "${ALL[@]}" > /dev/null
    echo "time to learn from every log (arm64 under qemu-user): $(echo "$(date +%s.%N) - $start" | bc) s"
fi
