#!/usr/bin/env bash
# The SD-card image booted under qemu-system-aarch64 (Tests/Pi/image_check.py says what is checked). `make
# image-check` builds the image first.
#   Tests/Pi/image-check.sh [IMAGE]
set -uo pipefail
cd "$(dirname "$0")/../.."
VERSION=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/Gateway/Configuration/Version.swift)
IMAGE=${1:-.build-image/telltale-$VERSION-arm64.img}
DEB=.build-deb/telltale_${VERSION}_arm64.deb
HOST=.build/release/telltale
for f in "$IMAGE" "$DEB" "$HOST"; do
    [ -e "$f" ] || { echo "image-check: $f is missing (make image-check builds it)"; echo "image-check: 0 passed, 1 failed"; exit 1; }
done
# The NMEA 2000 part reads the Pi's frames with PyPI's nmea2000, in the checks' own environment.
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import nmea2000" 2>/dev/null || "$VENV/bin/pip" install --quiet "nmea2000==2026.10.3"
exec "$VENV/bin/python" Tests/Pi/image_check.py "$IMAGE" "$DEB" "$HOST"
