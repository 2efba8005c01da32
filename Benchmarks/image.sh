#!/usr/bin/env bash
# The SD-card image's figures, measured inside the emulated Pi (Benchmarks/image_bench.py): its size, the time from
# power-on to the first computed sentence, the gateway's memory with one NMEA client and two panels, the system's.
# `make image` builds the image first.
#   Benchmarks/image.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/Gateway/Configuration/Version.swift)
IMAGE=.build-image/telltale-$VERSION-arm64.img
[ -f "$IMAGE" ] || { echo "no $IMAGE: make image" >&2; exit 1; }
# The routing phase writes its GRIB with Debian's python3-eccodes, which `make test` installs.
/usr/bin/python3 -c "import eccodes" 2>/dev/null || make --no-print-directory test-deps
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import websocket" 2>/dev/null || "$VENV/bin/pip" install --quiet websocket-client
exec "$VENV/bin/python" Benchmarks/image_bench.py "$IMAGE" "${1:-180}"
