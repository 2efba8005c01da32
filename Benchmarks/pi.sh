#!/usr/bin/env bash
# Pi build figures (issue: Telltale on the Pi), after `make pi release-static`:
# - the size of each ARM binary;
# - resident memory (VmHWM) of `telltale run` on the bench profile for 20 s: the ARM build under qemu-user (the
#   figure includes qemu's own memory, so it is an upper bound for the Pi) beside the x86 static build;
# - instructions per replayed hour (valgrind, the x86 desktop build: the ARM code is the same Swift, compiled for
#   another processor, so its count is of the same order) and the wall time of the same replay on ARM under qemu.
set -euo pipefail
cd "$(dirname "$0")/.."
for arch in arm64 armhf; do
    [ -x ".build-pi/$arch/telltale" ] && echo "binary $arch: $(stat -c %s ".build-pi/$arch/telltale") bytes (stripped)"
done

hwm() {  # command...: runs it for 20 s, prints the peak resident set of its process in MB
    "$@" >/dev/null 2>&1 &
    local pid=$!
    sleep 20
    local kb
    kb=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    python3 -c "print(f'{$kb / 1024:.1f} MB')"
}
CONFIG=$(mktemp --suffix=.toml)
sed 's/10110/10199/; s#\.\./Fixtures#'"$PWD"'/Fixtures#g' Boards/bench.toml > "$CONFIG"
echo "bench profile, x86 static build: VmHWM $(hwm .build/release/telltale run --config "$CONFIG")"
SYSROOT=$PWD/.build-pi/arm64/sysroot
echo "bench profile, arm64 build under qemu-aarch64 (qemu included): VmHWM $(hwm qemu-aarch64 -L /usr/aarch64-linux-gnu \
    -E LD_LIBRARY_PATH=$SYSROOT/usr/lib/aarch64-linux-gnu:$SYSROOT/lib/aarch64-linux-gnu \
    .build-pi/arm64/telltale run --config "$CONFIG")"
rm -f "$CONFIG"

OUT=Benchmarks/output/hour
mkdir -p "$OUT"
.build/release/telltale simulate --route Benchmarks/hour-route.gpx --output "$OUT" --duration 3600 2>/dev/null
sentences=$(wc -l < "$OUT/voyage.nmea")
replay=(replay --fast --route Benchmarks/hour-route.gpx --imu "$OUT/imu.csv" "$OUT/voyage.nmea")
instructions=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null .build/release/telltale "${replay[@]}" 2>&1 \
    >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
echo "replay of one hour ($sentences sentences, 360 000 IMU samples), x86 desktop build: $instructions instructions"
start=$(date +%s.%N)
qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH="$SYSROOT/usr/lib/aarch64-linux-gnu:$SYSROOT/lib/aarch64-linux-gnu" \
    .build-pi/arm64/telltale "${replay[@]}" >/dev/null 2>&1
end=$(date +%s.%N)
python3 -c "print(f'the same replay on arm64 under qemu-aarch64 (emulated): {$end - $start:.1f} s')"
