#!/usr/bin/env bash
# Writes Tests/Pi/loop-functions.txt, the functions the daemon's loop runs, which the Pi build's link places side by
# side (Tests/Pi/build.sh): the arm64 build with its symbols, traced under qemu-aarch64 while it carries the image
# benchmark's load (Tests/Pi/loop_profile.py). Run it again when the loop's code has changed much: a function the list
# misses costs a page of its own, never a failure. About 6 minutes after the Pi build.
#   Tests/Pi/loop-profile.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=.build-pi/arm64
SYMBOLS=1 Tests/Pi/build.sh arm64 "$WORK/telltale-symbols"
gcc -O2 -o "$WORK/loop_trace" Tests/Pi/loop_trace.c
VENV=.build-interop/venv
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -c "import websocket" 2>/dev/null || "$VENV/bin/pip" install --quiet websocket-client
"$VENV/bin/python" Tests/Pi/loop_profile.py "$WORK/telltale-symbols" "$WORK/loop_trace" Tests/Pi/loop-functions.txt \
    "${1:-120}"
