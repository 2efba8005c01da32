#!/usr/bin/env bash
# SD-card wear of the whole gateway: bytes written to its state file system an hour, history on, uplink off and on
# (Benchmarks/wear.py). Needs root and mosquitto. After `make release`.
#   Benchmarks/wear.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 Benchmarks/wear.py .build/release/telltale "${1:-300}"
