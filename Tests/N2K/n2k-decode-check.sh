#!/usr/bin/env bash
# Telltale's NMEA 2000 decoding against PyPI's nmea2000 (Tests/N2K/decode_check.py says what is compared): the
# project's own recording of what Telltale puts on a bus (Fixtures/n2k, made by Tests/N2K/make_fixture.py), and the
# real buses of ../shared/fixtures/n2k when they are there (skipped, saying so, when they are not).
#   Tests/N2K/n2k-decode-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin n2k-decode-check
BIN=${1:-.build/release/telltale}
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
"$VENV/bin/python" -c "import nmea2000, can" 2>/dev/null ||
    "$VENV/bin/pip" install --quiet "nmea2000==2026.10.3" "python-can==4.6.1"
FILES=(Fixtures/n2k/telltale-demo.candump)
SHARED=../shared/fixtures/n2k
if [ -d "$SHARED" ]; then
    for f in actisense-522.candump.log candumpSample1.txt candumpSample3.txt susteranna2020.raw \
        dirona-actisense-serial.raw; do
        if [ -f "$SHARED/$f" ]; then FILES+=("$SHARED/$f"); else echo "n2k-decode-check: $SHARED/$f is absent (skipped)"; fi
    done
else
    echo "n2k-decode-check: $SHARED is absent: only the project's own recording is compared (skipped: the real buses)"
fi
CHECKS_DONE=1
exec "$VENV/bin/python" Tests/N2K/decode_check.py "$BIN" "${FILES[@]}"
