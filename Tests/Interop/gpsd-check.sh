#!/usr/bin/env bash
# Interoperability with gpsd, and clean shutdown:
#  1. `telltale run` serves the demo voyage on a free loopback TCP port;
#  2. the real gpsd reads that stream (gpsd -N tcp://...) and gpspipe must report a 2D or 3D fix;
#  3. SIGTERM makes telltale exit 0 within 2 seconds.
# TELLTALE_BIN and TELLTALE_RUNNER (an emulator command line) let the Pi checks run the ARM builds the same way;
# MIN_MODE 3 asks for a 3D fix.
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
BIN=${TELLTALE_BIN:-.build/release/telltale}
checks_begin "${CHECK_NAME:-gpsd-check}"
MIN_MODE=${MIN_MODE:-2}
read -r -a RUNNER <<< "${TELLTALE_RUNNER:-}"
command -v gpsd >/dev/null || { echo "gpsd is not installed (apt-get install gpsd gpsd-clients)"; exit 1; }
PORT=$(free_port)
GPSD_PORT=$(free_port)
WORK=$(mktemp -d)
cleanup() { kill "$TELLTALE" "$GPSD" 2>/dev/null || true; rm -rf "$WORK"; }
GPSD=""
"${RUNNER[@]}" "$BIN" run --input file:Fixtures/demo-voyage/voyage.nmea --output "tcp://127.0.0.1:$PORT" 2>"$WORK/telltale.log" &
TELLTALE=$!
trap 'cleanup; checks_trap' EXIT
# Up when its port answers (an emulated ARM build takes longer to start).
wait_for_port "$PORT" || true
gpsd -N -n -b -S "$GPSD_PORT" -F "$WORK/gpsd.sock" "tcp://127.0.0.1:$PORT" 2>"$WORK/gpsd.log" &
GPSD=$!
wait_for_port "$GPSD_PORT" || true
if ! timeout 20 gpspipe -w -n 40 localhost:"$GPSD_PORT" > "$WORK/gpspipe.json" 2>/dev/null; then
    echo "gpspipe did not finish"
fi
MODE=$(python3 - "$WORK/gpspipe.json" <<'PY'
import json, sys
best = 0
for line in open(sys.argv[1]):
    try:
        report = json.loads(line)
    except ValueError:
        continue
    if report.get("class") == "TPV":
        best = max(best, report.get("mode", 0))
print(best)
PY
)
if [ "$MODE" -ge "$MIN_MODE" ]; then
    pass "gpsd reports a ${MODE}D fix from telltale's stream"
else
    fail "gpsd reported no fix (best mode $MODE)"; tail -5 "$WORK/gpsd.log"
fi

kill -TERM "$TELLTALE"
start=$(date +%s.%N)
set +e
wait "$TELLTALE"
status=$?
set -e
elapsed=$(python3 -c "import time; print(round($(date +%s.%N) - $start, 2))")
if [ "$status" -eq 0 ] && python3 -c "import sys; sys.exit(0 if $elapsed < 2 else 1)"; then
    pass "SIGTERM: exit 0 after ${elapsed}s"
else
    fail "SIGTERM: exit $status after ${elapsed}s"; cat "$WORK/telltale.log"
fi
cleanup
checks_end
