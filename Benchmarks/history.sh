#!/usr/bin/env bash
# History figures (#40): bytes a sample and a day, the History API's time for 24 h of five paths at 60 s, and the
# gateway's memory with 30 days on the card against none (Benchmarks/history_bench.py). After `make release`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 Benchmarks/history_bench.py "${1:-.build/release/telltale}"
