#!/usr/bin/env bash
# Runtime figures: pass-through latency, tick jitter, resident memory over a long run (Benchmarks/runtime.py).
# Built with --static-swift-stdlib, the build a Pi runs. RUNTIME_SENTENCES=10000000 for the full 10M-sentence run.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib >/dev/null
python3 Benchmarks/runtime.py .build/release/telltale "${RUNTIME_SENTENCES:-1000000}"
