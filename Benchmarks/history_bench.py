"""History figures (#40): bytes per sample, the History API's time for 24 h of five paths at 60 s, the daemon's
memory with 30 days of history on the card against none.

The days are written by this script's own encoder of the block format (docs/signalk.md#history): a boat sailing at
6 kn with a wandering wind, 14 values a second, so 30 days take seconds to make, and the gateway's reader is checked
against an encoder that is not its own.

    python3 Benchmarks/history_bench.py BINARY
"""

import json
import math
import os
import random
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
from support import Gateway, free_port  # noqa: E402

binary = sys.argv[1]
# id, step, second-order: as HistoryBlock.series.
SERIES = [(0, 1e-7, True), (1, 1e-7, True), (2, 0.001, False), (3, 0.01, False), (4, 0.001, False), (5, 0.01, False),
          (6, 0.001, False), (7, 0.01, False), (8, 0.001, False), (9, 0.01, False), (10, 0.001, False),
          (11, 0.01, False), (12, 0.001, False), (13, 0.001, False)]


def varint(value, out):
    z = (value << 1) ^ (value >> 63)
    z &= (1 << 64) - 1
    while z >= 0x80:
        out.append((z & 0x7F) | 0x80)
        z >>= 7
    out.append(z)


def block(minute, values):
    payload = bytearray()
    for (sid, step, second), samples in zip(SERIES, values):
        payload.append(sid)
        payload += struct.pack("<Q", (1 << 60) - 1)
        previous = change = 0
        for value in samples:
            q = round(value / step)
            delta = q - previous
            varint(delta - change if second else delta, payload)
            change = delta
            previous = q
    head = b"TTH1" + struct.pack("<IH", minute, len(payload)) + bytes(payload)
    return head + struct.pack("<I", zlib.crc32(head))


def day(first_minute, rng, state):
    out = bytearray()
    for m in range(1440):
        rows = [[] for _ in SERIES]
        for s in range(60):
            state["lat"] += 6 * 0.5144 / 111_120 * math.cos(state["cog"])
            state["lon"] += 6 * 0.5144 / 70_000 * math.sin(state["cog"])
            state["wind"] += rng.gauss(0, 0.05)
            state["cog"] = (state["cog"] + rng.gauss(0, 0.002)) % (2 * math.pi)
            sample = [state["lat"], state["lon"], state["cog"], 3.08 + rng.gauss(0, 0.05), state["cog"],
                      3.0 + rng.gauss(0, 0.05), 0.7 + rng.gauss(0, 0.05), 7 + state["wind"] * 0.1 + rng.gauss(0, 0.3),
                      0.9 + rng.gauss(0, 0.05), 5 + rng.gauss(0, 0.3), (state["cog"] + 1.2) % (2 * math.pi),
                      20 + rng.gauss(0, 0.1), 0.3 + rng.gauss(0, 0.02), 0.02 + rng.gauss(0, 0.01)]
            for row, value in zip(rows, sample):
                row.append(value)
        out += block(first_minute + m, rows)
    return bytes(out)


def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


rng = random.Random(7)
state_with = tempfile.mkdtemp(prefix="telltale-history-bench-")
os.makedirs(os.path.join(state_with, "history"))
start_minute = 29_680_000 - 29_680_000 % 1440  # a UTC midnight in 2026
boat = {"lat": 50.0, "lon": -5.0, "cog": 1.0, "wind": 0.0}
t0 = time.time()
total = 0
for d in range(30):
    data = day(start_minute + d * 1440, rng, boat)
    name = time.strftime("%Y-%m-%d", time.gmtime((start_minute + d * 1440) * 60)) + ".tth"
    open(os.path.join(state_with, "history", name), "wb").write(data)
    total += len(data)
samples = 30 * 1440 * 60 * len(SERIES)
print(f"30 days written by the independent encoder in {time.time() - t0:.0f} s: {total / 1e6:.1f} MB, "
      f"{total / samples:.3f} bytes a sample, {total / 30 / 1e6:.2f} MB a day (14 values a second)")

state_without = tempfile.mkdtemp(prefix="telltale-history-bench-none-")
results = {}
for label, state in (("none", state_without), ("30 days", state_with)):
    web = free_port()
    gateway = Gateway(binary, f"""status_line = false
state_file = "{state}/state.toml"
[web]
listen = "127.0.0.1:{web}"
[history]
keep_mb = 2000
""").start(wait=[web])
    time.sleep(30)
    results[label] = rss(gateway.process.pid)
    if label == "30 days":
        last_day = time.strftime("%Y-%m-%dT00:00:00Z", time.gmtime((start_minute + 29 * 1440) * 60))
        url = (f"http://127.0.0.1:{web}/signalk/v2/api/history/values?paths=navigation.speedOverGround,"
               "environment.wind.speedTrue:max,navigation.headingTrue,environment.depth.belowTransducer:min,"
               f"navigation.position&from={last_day}&duration=P1D&resolution=60")
        times = []
        for _ in range(7):
            t = time.perf_counter()
            body = json.loads(urllib.request.urlopen(url, timeout=60).read())
            times.append(time.perf_counter() - t)
        rows = [row for row in body["data"] if row[1] is not None]
        print(f"history/values, 24 h of five paths at 60 s ({len(rows)} rows): median {statistics.median(times) * 1000:.1f} ms, "
              f"best {min(times) * 1000:.1f} ms (of 7)")
        results["after query"] = rss(gateway.process.pid)
    gateway.stop()
print(f"VmRSS after 30 s: {results['none']} kB with no history, {results['30 days']} kB with 30 days on the card "
      f"({results['30 days'] - results['none']:+d} kB); {results['after query']} kB after the queries")
