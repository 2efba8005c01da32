"""The owner's boat from home: what a web side pays to answer her panel's history (#53).

    python3 Benchmarks/owner_history.py .build/release/telltale [SAMPLES_A_BATCH]

Makes a SQLite store with `telltale fleet account list` (the schema), writes a day of one boat's uplink batches into
it as the store keeps them (a batch every 10 s, 8,640, with their positions; each SAMPLES_A_BATCH samples, 14 by default: about the
uplink's default rates; 230 is every group at 1 Hz), starts `telltale fleet --role web` on it, and times the answers
her panel asks for: the chart's track (a day's positions, 3,000 at most), the history tiles' windows (an hour, six, a day),
the passage of a day; and her values. The web side answers on its one loop: the time of an answer is the time every
other request waits, unless it is read a page at a time between them, as it is. Prints a line each, the slowest answer
to her values asked while a day is read,, and the web side's resident memory before and after.
"""
import json
import os
import threading
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Tests", "Support"))
from support import free_port, memory_kb, stop, wait_for  # noqa: E402

binary = os.path.abspath(sys.argv[1])
per_batch = int(sys.argv[2]) if len(sys.argv) > 2 else 14
work = tempfile.mkdtemp(prefix="owner-history-")
store = os.path.join(work, "fleet.sqlite")
subprocess.run([binary, "fleet", "account", "list", "--store", store], check=True, capture_output=True)

PATHS = ["navigation.speedOverGround", "navigation.courseOverGroundTrue", "navigation.headingTrue",
         "navigation.speedThroughWater", "environment.wind.speedTrue", "environment.wind.directionTrue",
         "environment.wind.speedApparent", "environment.wind.angleApparent", "environment.depth.belowTransducer",
         "environment.outside.pressure", "navigation.rateOfTurn"]
now = time.time()
start = now - 86_400
db = sqlite3.connect(store)
rows = []
for index in range(8_640):
    first = start + index * 10
    samples = []
    for k in range(per_batch):
        t = first + (k * 10.0 / per_batch)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t * 1000) % 1000:03d}Z"
        slot = k % (len(PATHS) + 2)
        if slot == len(PATHS):
            value, path = {"latitude": 50.7 + index * 1e-5, "longitude": -1.3}, "navigation.position"
        elif slot == len(PATHS) + 1:
            value, path = {"roll": 0.1, "pitch": 0.01}, "navigation.attitude"
        else:
            value, path = 2.0 + (index % 50) * 0.05, PATHS[slot]
        samples.append({"path": path, "value": value, "timestamp": stamp, "$source": "bench"})
    batch = {"boat": "arrow", "seq": index + 1, "late": False, "count": per_batch, "thinned": 0, "alarms": 0,
             "samples": samples}
    rows.append(("arrow", index + 1, time.strftime("%Y-%m-%d", time.gmtime(first)), first + 10.5, first, first + 9.9,
                 per_batch, 0, 0, 0, json.dumps(batch, separators=(",", ":"))))
positions = [("arrow", b[4], b[1], 50.7 + i * 1e-5, -1.3) for i, b in enumerate(rows)]
db.executemany("INSERT INTO fleet_positions (boat, time, seq, latitude, longitude) VALUES (?, ?, ?, ?, ?)", positions)
db.executemany("INSERT OR IGNORE INTO fleet_track (boat, minute, time, latitude, longitude) VALUES (?, ?, ?, ?, ?)",
               [(p[0], int(p[1] // 60), p[1], p[3], p[4]) for p in positions])
db.executemany("INSERT INTO fleet_batches (boat, seq, day, received, first_time, last_time, count, thinned, alarms, "
               "late, batch) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
db.commit()
size = os.path.getsize(store)
port = free_port()
web = subprocess.Popen([binary, "fleet", "--role", "web", "--store", store, "--listen", f"127.0.0.1:{port}"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def get(path):
    began = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=120) as r:
        body = r.read()
    return time.monotonic() - began, body


def ready():
    try:
        return get("/telltale/v1/fleet/boats/arrow/values")[0] is not None
    except OSError:
        return False


try:
    wait_for(ready, 120, step=1)
    time.sleep(3)
    before = memory_kb(web.pid)
    print(f"a day of one boat: 8,640 batches of {per_batch} samples, the store {size / 1e6:.1f} MB")
    history = "/telltale/v1/fleet/boats/arrow/history/values?paths="
    asks = [
        ("her values", "/telltale/v1/fleet/boats/arrow/values"),
        ("the chart's track, a day (every k-th position, 3,000 at most)",
         f"/telltale/v1/fleet/tracks?boat=arrow&from={now - 86_400:.0f}&to={now:.0f}&points=3000"),
        ("speed history, 1 h", history + "navigation.speedThroughWater,navigation.speedOverGround,"
         "navigation.speedOverGround:max&duration=3600&resolution=18"),
        ("speed history, 6 h", history + "navigation.speedThroughWater,navigation.speedOverGround,"
         "navigation.speedOverGround:max&duration=21600&resolution=108"),
        ("speed history, 24 h", history + "navigation.speedThroughWater,navigation.speedOverGround,"
         "navigation.speedOverGround:max&duration=86400&resolution=432"),
        ("a day's passage", history + "navigation.position:first,navigation.speedOverGround,"
         "navigation.speedOverGround:max,navigation.attitude.roll:max,navigation.attitude.roll:min,"
         "environment.wind.speedTrue:min,environment.wind.speedTrue:max&duration=86400&resolution=31"),
    ]
    for name, path in asks:
        times = []
        for _ in range(3):
            took, body = get(path)
            times.append(took)
        print(f"{name}: {min(times) * 1000:.0f} ms (best of 3; slowest {max(times) * 1000:.0f} ms), {len(body)} bytes")
    # Meanwhile: her values asked every 50 ms while a day's history is read (the web side reads it a page at a time).
    waits, done = [], threading.Event()
    reader = threading.Thread(target=lambda: (get(asks[4][1]), done.set()))
    reader.start()
    while not done.is_set():
        waits.append(get(asks[0][1])[0])
        time.sleep(0.05)
    reader.join()
    print(f"her values asked every 50 ms while a day's speed history was read: {len(waits)} answers, the slowest "
          f"{max(waits) * 1000:.0f} ms")
    print(f"the web side's resident memory: {before / 1024:.1f} MB before, {memory_kb(web.pid) / 1024:.1f} MB after "
          f"(peak {memory_kb(web.pid, 'VmHWM') / 1024:.1f} MB)")
finally:
    stop(web)
