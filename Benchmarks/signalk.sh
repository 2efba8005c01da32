#!/usr/bin/env bash
# Signal K server figures (Benchmarks/signalk.py): resident memory idle and with 10 streaming clients, CPU per
# client; the static build (what the amd64 package ships), then the arm64 Pi build under qemu when `make pi` made it
# (its memory then includes qemu's own: an upper bound, not the Pi's figure).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib >/dev/null
echo "== x86, static build"
python3 Benchmarks/signalk.py .build/release/telltale "${SIGNALK_CLIENTS:-10}" "${SIGNALK_SECONDS:-20}"
if [ -x .build-pi/arm64/telltale ]; then
    SYSROOT=$PWD/.build-pi/arm64/sysroot
    echo "== arm64 Pi build under qemu-aarch64 (qemu's memory included)"
    python3 Benchmarks/signalk.py .build-pi/arm64/telltale "${SIGNALK_CLIENTS:-10}" "${SIGNALK_SECONDS:-20}" \
        qemu-aarch64 -L /usr/aarch64-linux-gnu -E \
        "LD_LIBRARY_PATH=$SYSROOT/usr/lib/aarch64-linux-gnu:$SYSROOT/lib/aarch64-linux-gnu"
fi
