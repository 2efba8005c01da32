#!/usr/bin/env bash
# Fleet uplink figures (Benchmarks/uplink_bench.py): bytes per boat per hour on the wire, the queue's writes to its
# file system (SD card wear), the uplink's memory (x86, and arm64 under qemu when `make pi` has built it), and how many
# boats one `telltale fleet` follows at 1 Hz. Needs root, Debian's mosquitto, paho-mqtt in the interop venv.
#   Benchmarks/uplink.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
ARM=()
[ -x .build-pi/arm64/telltale ] && ARM=(.build-pi/arm64/telltale "$PWD/.build-pi/arm64/sysroot")
exec python3 Benchmarks/uplink_bench.py .build/release/telltale "${1:-300}" "${ARM[@]}"
