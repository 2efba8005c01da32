#!/usr/bin/env bash
# Interoperability with gpsd, and clean shutdown:
#  1. `telltale run` serves the demo voyage on a free loopback TCP port;
#  2. the real gpsd reads that stream (gpsd -N tcp://...) and gpspipe must report a 2D or 3D fix;
#  3. SIGTERM makes telltale exit 0 within 2 seconds.
# TELLTALE_BIN and TELLTALE_RUNNER (an emulator command line) let the Pi checks run the ARM builds the same way;
# MIN_MODE 3 asks for a 3D fix.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${TELLTALE_BIN:-.build/release/telltale}
NAME=${CHECK_NAME:-gpsd-check}
MIN_MODE=${MIN_MODE:-2}
read -r -a RUNNER <<< "${TELLTALE_RUNNER:-}"
command -v gpsd >/dev/null || { echo "gpsd-check: gpsd is not installed (apt-get install gpsd gpsd-clients)"; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
GPSD_PORT=$(free_port)
WORK=$(mktemp -d)
cleanup() { kill "$TELLTALE" "$GPSD" 2>/dev/null || true; rm -rf "$WORK"; }
GPSD=""
"${RUNNER[@]}" "$BIN" run --input file:Fixtures/demo-voyage/voyage.nmea --output "tcp://127.0.0.1:$PORT" 2>"$WORK/telltale.log" &
TELLTALE=$!
trap cleanup EXIT
# Up when its port answers (an emulated ARM build takes longer to start).
for _ in $(seq 1 50); do
    python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $PORT)))" && break
    sleep 0.2
done

gpsd -N -n -b -S "$GPSD_PORT" -F "$WORK/gpsd.sock" "tcp://127.0.0.1:$PORT" 2>"$WORK/gpsd.log" &
GPSD=$!
for _ in $(seq 1 50); do
    python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $GPSD_PORT)))" && break
    sleep 0.2
done
if ! timeout 20 gpspipe -w -n 40 localhost:"$GPSD_PORT" > "$WORK/gpspipe.json" 2>/dev/null; then
    echo "$NAME: gpspipe did not finish"
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
passed=0
failed=0
if [ "$MODE" -ge "$MIN_MODE" ]; then
    echo "gpsd reports a ${MODE}D fix from telltale's stream"
    passed=$((passed + 1))
else
    echo "gpsd reported no fix (best mode $MODE)"; cat "$WORK/gpsd.log" | tail -5
    failed=$((failed + 1))
fi

kill -TERM "$TELLTALE"
start=$(date +%s.%N)
set +e
wait "$TELLTALE"
status=$?
set -e
elapsed=$(python3 -c "import time; print(round($(date +%s.%N) - $start, 2))")
if [ "$status" -eq 0 ] && python3 -c "import sys; sys.exit(0 if $elapsed < 2 else 1)"; then
    echo "SIGTERM: exit 0 after ${elapsed}s"
    passed=$((passed + 1))
else
    echo "SIGTERM: exit $status after ${elapsed}s"; cat "$WORK/telltale.log"
    failed=$((failed + 1))
fi
echo "$NAME: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
