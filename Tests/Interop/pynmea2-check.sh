#!/usr/bin/env bash
# Interoperability: every sentence of the demo replay (input passed through and computed) must have a valid
# checksum, be at most 82 bytes, and parse in pynmea2 with checksum checking. pynmea2 comes from PyPI into a
# virtual environment made here.
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin pynmea2-check
VENV=.build-interop/venv
if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
# The venv may have been made by another check first: pynmea2 is installed whenever it is missing.
"$VENV/bin/python" -c "import pynmea2" 2>/dev/null || "$VENV/bin/pip" install --quiet pynmea2
OUT=.build-interop/demo-replay.nmea
.build/release/telltale replay --fast --route Fixtures/demo-voyage/route.gpx Fixtures/demo-voyage/voyage.nmea > "$OUT"
check "every sentence of the demo replay is at most 82 bytes and parses in pynmea2 with its checksum" \
    "$VENV/bin/python" - "$OUT" <<'PY'
import sys
import pynmea2

failures = 0
count = 0
unknown = {}
with open(sys.argv[1], "rb") as f:
    for number, raw in enumerate(f, 1):
        count += 1
        if len(raw) > 82:
            failures += 1
            print(f"line {number}: {len(raw)} bytes: {raw!r}")
            continue
        line = raw.decode("ascii").rstrip("\r\n")
        if line.startswith("!"):
            # Encapsulated (AIS VDM/VDO), which pynmea2 does not read: framing and checksum here; ais-check decodes
            # every message with pyais.
            body, _, checksum = line[1:].partition("*")
            computed = 0
            for byte in body.encode():
                computed ^= byte
            if len(body.split(",")[0]) != 5 or checksum != f"{computed:02X}":
                failures += 1
                print(f"line {number}: an encapsulated sentence with wrong framing or checksum: {line}")
            else:
                unknown[body[2:5]] = unknown.get(body[2:5], 0) + 1
            continue
        try:
            pynmea2.parse(line, check=True)
        except pynmea2.SentenceTypeError as error:
            # A type pynmea2 does not define (ALR): its framing and checksum are still checked here.
            body, _, checksum = line[1:].partition("*")
            computed = 0
            for byte in body.encode():
                computed ^= byte
            if line[0] != "$" or len(body.split(",")[0]) != 5 or checksum != f"{computed:02X}":
                failures += 1
                print(f"line {number}: {error}, and its framing or checksum is wrong: {line}")
            else:
                unknown[body[2:5]] = unknown.get(body[2:5], 0) + 1
        except Exception as error:
            failures += 1
            if failures <= 10:
                print(f"line {number}: {error}: {line}")
if unknown:
    print("not defined in pynmea2, checked for framing and checksum only: "
          + ", ".join(f"{kind} ({n})" for kind, n in sorted(unknown.items())))
print(f"pynmea2: {count - failures} of {count} sentences parsed, {failures} refused")
sys.exit(1 if failures or count == 0 else 0)
PY
checks_end
