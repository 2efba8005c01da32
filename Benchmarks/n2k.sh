#!/usr/bin/env bash
# NMEA 2000 decoding as whole processes, side by side (docs/benchmarks.md has the figures):
#   Benchmarks/n2k.sh [RECORDING]     (default ../shared/fixtures/n2k/dirona-actisense-serial.raw, 635 messages/s)
# - telltale-bench n2k-decode: the recording read as the gateway reads a bus (text parsed, fast packets put together,
#   typed decode of the PGNs Telltale reads), no output;
# - telltale n2k --decode: the same, each message printed as JSON;
# - canboat's analyzer -json (the C decoder every open N2K stack builds on), when ANALYZER names it (build it from
#   canboat's analyzer/ with `gcc -O2`), printing every message as JSON;
# - PyPI's nmea2000 (its decode() over each line), in the checks' environment.
# Each is run RUNS times (default 20); the median and the best wall time are printed, and messages a second.
set -euo pipefail
cd "$(dirname "$0")/.."
FILE=${1:-../shared/fixtures/n2k/dirona-actisense-serial.raw}
RUNS=${RUNS:-20}
[ -f "$FILE" ] || { echo "n2k.sh: $FILE is absent"; exit 1; }
# The benchmark with the Swift standard library linked in, as the gateway is on a Pi (it starts in 6 ms instead of 8).
BENCH=.build-static/release/telltale-bench
[ -x "$BENCH" ] || swift build -c release --static-swift-stdlib --scratch-path .build-static --product telltale-bench
MESSAGES=$("$BENCH" n2k-decode --iterations 1 "$FILE" | sed -n 's/.*lines, \([0-9]*\) messages.*/\1/p')
"$BENCH" n2k-decode --iterations 20 "$FILE"
python3 - "$RUNS" "$MESSAGES" "$FILE" "${ANALYZER:-}" "$BENCH" <<'PY'
import os, statistics, subprocess, sys, time
runs, messages, path, analyzer, bench = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
def measure(name, argv, stdin=None):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdin=open(stdin) if stdin else None, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(f"{name:34} median {median * 1000:7.1f} ms, best {min(times) * 1000:7.1f} ms: "
          f"{messages / median:>10,.0f} messages a second")
    return median
ours = measure("telltale-bench n2k-decode", [bench, "n2k-decode", "--iterations", "1", path])
json = measure("telltale n2k --decode (JSON)", [".build/release/telltale", "n2k", "--decode", path])
if analyzer and os.path.exists(analyzer):
    theirs = measure("canboat analyzer -json", [analyzer, "-json"], stdin=path)
    print(f"telltale against canboat's analyzer: {theirs / ours:.1f}x decoding, {theirs / json:.1f}x with JSON out")
else:
    print("canboat's analyzer: not measured (ANALYZER=path/to/analyzer)")
venv = ".build-interop/venv/bin/python"
if os.path.exists(venv):
    code = ("import sys\nfrom nmea2000.decoder import NMEA2000Decoder\nd = NMEA2000Decoder()\n"
            "for line in open(sys.argv[1]):\n    try: d.decode(line.strip())\n    except Exception: pass\n")
    runs_saved, runs = runs, 3
    measure("PyPI nmea2000 decode()", [venv, "-c", code, path])
PY
