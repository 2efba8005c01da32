"""The shore at race scale: `telltale fleet` ingest workers taking a load of boats into PostgreSQL.

    sudo .build-interop/venv/bin/python Benchmarks/fleet.py .build/release/telltale [SECONDS]

Starts Debian's PostgreSQL 15 with PostGIS in a folder of its own (as nobody), mosquitto brokers (persistence on), M
ingest workers (one of them the keeper) and `Tests/Interop/fleet_load.py` publishing as 2,000 boats: each a history
batch every 10 s (the uplink's default) of every group sampled at 1 Hz (23 values a second), or at 10 s (about the
default rates). For each setting (brokers x workers x rate) it reports: batches and samples stored a second, the
store's lag (seconds from a batch's last sample to its commit: the highest a worker reported over the last 30 s of
load), how long after the load stopped the store held every acknowledged batch, the workers' peak resident memory, and
the database's bytes a boat an hour (the day's partitions of batches and positions, indexes included). Then the
replay: the time `GET /telltale/v1/fleet/tracks` takes for the span stored, and its bytes.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
from support import free_port, memory_kb, stop, wait_for  # noqa: E402
from shore import Postgres, mosquitto  # noqa: E402

binary = os.path.abspath(sys.argv[1])
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 60
python = sys.executable
work = tempfile.mkdtemp(prefix="fleet-bench-")
os.chmod(work, 0o755)
database = Postgres(free_port(), settings="-c shared_buffers=256MB")
if not database.ok:
    sys.exit("PostgreSQL did not start: " + database.errors)
pg, pg_port = database.folder, database.port
outside = []
procs = []


def cleanup():
    for p in procs:
        if p.poll() is None:
            stop(p)
    database.remove()
    for folder in outside + [work]:
        shutil.rmtree(folder, ignore_errors=True)


import atexit  # noqa: E402
atexit.register(cleanup)


def sql(query, name="fleet"):
    return database.sql(query, name)


def broker(port):
    process, keep = mosquitto(port, work)
    outside.append(keep)
    procs.append(process)
    time.sleep(0.3)
    return process


def run(brokers, workers, period, boats=2000):
    sql("DROP DATABASE IF EXISTS fleet", "postgres")
    sql("CREATE DATABASE fleet", "postgres")
    store = database.url
    ports = [free_port() for _ in range(brokers)]
    started = [broker(p) for p in ports]
    args = sum([["--broker", f"mqtt://127.0.0.1:{p}"] for p in ports], [])
    running = []
    for k in range(workers):
        running.append(subprocess.Popen(
            [binary, "fleet", *args, "--role", "ingest", "--worker", f"w{k + 1}", "--store", store, "--journal",
             os.path.join(work, f"w{k + 1}-{brokers}-{workers}.journal")] + (["--keeper"] if k == 0 else []),
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, f"w{k + 1}.log"), "a")))
    procs.extend(running)
    time.sleep(2)
    report = os.path.join(work, "load.json")
    load = subprocess.Popen([python, os.path.join(ROOT, "Tests", "Interop", "fleet_load.py"), "--brokers",
                             ",".join(map(str, ports)), "--boats", str(boats), "--seconds", str(seconds), "--batch",
                             "10", "--period", str(period), "--report", report], stdout=subprocess.PIPE, text=True)
    t0 = time.time()
    lags = []
    while load.poll() is None:
        time.sleep(1)
        if time.time() - t0 > seconds - 30:
            rows = sql("SELECT max(lag) FROM fleet_workers")
            if rows and rows[0][0]:
                lags.append(float(rows[0][0]))
    acked = json.load(open(report))["boats"]
    expected = sum(len(v) for v in acked.values())
    ended = time.time()
    wait_for(lambda: int(sql("SELECT count(*) FROM fleet_batches")[0][0]) >= expected, 300, step=0.5)
    drained = time.time() - ended
    stored = int(sql("SELECT count(*) FROM fleet_batches")[0][0])
    samples = int(sql("SELECT coalesce(sum(count), 0) FROM fleet_batches")[0][0])
    peak = max(memory_kb(p.pid, "VmHWM") for p in running)
    size = int(sql("SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits WHERE inhparent IN "
                   "('fleet_batches'::regclass, 'fleet_positions'::regclass)")[0][0] or 0)
    span = json.load(open(report))
    hours = (span["end"] - span["start"]) / 3600
    print(f"  {brokers} broker(s), {workers} worker(s), samples every {period:g} s: {stored}/{expected} batches "
          f"({stored / max(1, span['end'] - span['start']):.0f}/s, {samples / max(1, span['end'] - span['start']):.0f} "
          f"samples/s); lag over the last 30 s of load: max {max(lags) if lags else float('nan'):.1f} s; all stored "
          f"{drained:.1f} s after the load stopped; worker peak RSS {peak / 1024:.1f} MB; database "
          f"{size / boats / hours / 1e6:.2f} MB a boat an hour", flush=True)
    for p in running:
        stop(p)
    for p in started:
        stop(p)
    return store


print(f"telltale fleet ingest, 2,000 boats, a batch every 10 s, {seconds:.0f} s of load, on this machine "
      f"({os.cpu_count()} cores):", flush=True)
settings = [(1, 1, 1), (1, 2, 1), (1, 4, 1), (2, 2, 1), (2, 4, 1), (1, 1, 10)]
only = os.environ.get("FLEET_SETTINGS")
if only:
    settings = [tuple(int(x) for x in s.split("x")) for s in only.split(",")]
store = None
for brokers, workers, period in settings:
    store = run(brokers, workers, period)

# The ceiling: what N workers store a second when the load is more than they can take. The workers make their kept
# sessions and stop; 2,000 boats publish 30 s of batches at 1 Hz (about 6,000 batches, 130 MB) into the broker, which
# keeps them for the sessions; then the workers start and the time until the store holds every acknowledged batch is
# taken. No load generator runs while they drain, so the figure is the workers' and the database's alone.
def ceiling(workers, boats=2000, load_seconds=30):
    sql("DROP DATABASE IF EXISTS fleet", "postgres")
    sql("CREATE DATABASE fleet", "postgres")
    port = free_port()
    started = broker(port)

    def start_workers():
        return [subprocess.Popen(
            [binary, "fleet", "--broker", f"mqtt://127.0.0.1:{port}", "--role", "ingest", "--worker", f"c{k + 1}",
             "--store", database.url, "--journal", os.path.join(work, f"c{k + 1}-{workers}.journal")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for k in range(workers)]
    running = start_workers()
    time.sleep(3)
    for p in running:
        stop(p)
    report = os.path.join(work, "ceiling.json")
    subprocess.run([python, os.path.join(ROOT, "Tests", "Interop", "fleet_load.py"), "--brokers", str(port),
                    "--boats", str(boats), "--seconds", str(load_seconds), "--batch", "10", "--period", "1",
                    "--report", report], stdout=subprocess.DEVNULL, check=True)
    expected = sum(len(v) for v in json.load(open(report))["boats"].values())
    t = time.monotonic()
    running = start_workers()
    procs.extend(running)
    wait_for(lambda: int(sql("SELECT count(*) FROM fleet_batches")[0][0]) >= expected, 600, step=0.2)
    took = time.monotonic() - t
    stored = int(sql("SELECT count(*) FROM fleet_batches")[0][0])
    samples = int(sql("SELECT coalesce(sum(count), 0) FROM fleet_batches")[0][0])
    print(f"  ceiling, {workers} worker(s): {stored}/{expected} batches waiting in the broker stored in {took:.1f} s: "
          f"{stored / took:.0f} batches/s, {samples / took:.0f} samples/s (2,000 boats at 1 Hz is 200 batches/s)",
          flush=True)
    for p in running + [started]:
        stop(p)


if os.environ.get("FLEET_CEILING", "1") != "0":
    for n in (1, 2, 4):
        ceiling(n)
    store = database.url

# Replay: the stored span's tracks from a web side.
web_port = free_port()
web = subprocess.Popen([binary, "fleet", "--role", "web", "--store", store, "--listen", f"127.0.0.1:{web_port}"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
procs.append(web)
time.sleep(2)
span = json.load(urllib.request.urlopen(f"http://127.0.0.1:{web_port}/telltale/v1/fleet/span", timeout=10))
times = []
size = 0
for _ in range(3):
    t = time.monotonic()
    body = urllib.request.urlopen(f"http://127.0.0.1:{web_port}/telltale/v1/fleet/tracks?from={span['first']}"
                                  f"&to={span['last']}", timeout=60).read()
    times.append(time.monotonic() - t)
    size = len(body)
boats = len(json.loads(body)["boats"])
print(f"  the load's span ({(span['last'] - span['first']) / 60:.0f} min) of {boats} boats' tracks, 300 points "
      f"a boat, from the web side: {min(times):.2f} s (best of 3), {size / 1e6:.1f} MB", flush=True)

# A six-hour race of 2,000 boats, a position every 10 s (the uplink's default rate), written straight into the store
# by SQL (4.3 million points), then replayed from the web side: the whole race's tracks, 300 points a boat.
sql("CREATE TABLE IF NOT EXISTS fleet_positions_20260621 PARTITION OF fleet_positions "
    "FOR VALUES FROM ('2026-06-21 00:00:00+00') TO ('2026-06-22 00:00:00+00')")
t = time.monotonic()
sql("INSERT INTO fleet_positions (boat, time, seq, position) SELECT 'race-' || b, "
    "to_timestamp(1782036000 + s * 10), s / 10 + 1, ST_SetSRID(ST_MakePoint(-1.45 + 0.00004 * s * cos(b) + 0.001 * (b % 40), "
    "50.70 + 0.00003 * s * sin(b) + 0.001 * (b / 40)), 4326)::geography "
    "FROM generate_series(0, 1999) AS b, generate_series(0, 2159) AS s")
# The minute track, as the workers keep it beside the positions.
sql("CREATE TABLE IF NOT EXISTS fleet_track_20260621 PARTITION OF fleet_track FOR VALUES FROM (29700000) TO (29701440)")
sql("INSERT INTO fleet_track (boat, minute, time, latitude, longitude) SELECT boat, "
    "floor(extract(epoch from time) / 60)::bigint, time, ST_Y(position::geometry), ST_X(position::geometry) "
    "FROM fleet_positions_20260621 ORDER BY boat, time ON CONFLICT DO NOTHING")
made = time.monotonic() - t
times = []
for _ in range(3):
    t = time.monotonic()
    body = urllib.request.urlopen(f"http://127.0.0.1:{web_port}/telltale/v1/fleet/tracks?from=1782036000"
                                  f"&to={1782036000 + 6 * 3600}", timeout=120).read()
    times.append(time.monotonic() - t)
race = json.loads(body)
points = sum(len(b["track"]) for b in race["boats"])
print(f"  replay of a six-hour race: {len(race['boats'])} boats, 4.32 million positions kept (written, with their minute track, in {made:.0f} s), "
      f"the whole race's tracks from the web side in {min(times):.2f} s (best of 3): {points} points, "
      f"{len(body) / 1e6:.1f} MB", flush=True)

# The race office on that race: 2,000 boats entered in four classes with TCCs, a start line across the fleet's north
# edge, a mark and a finish; the standings read from the store (every boat's positions over the race, up to a point
# every 10 s) and computed. The same race three times in the file, so that each request reads afresh.
with open(os.path.join(work, "entries.csv"), "w") as f:
    f.write("boat,class,tcc\n" + "".join(f"race-{b},IRC {b % 4},{0.9 + (b % 23) / 100:.3f}\n" for b in range(2000)))
race_toml = """[[race]]
name = "Six hours"
start = "2026-06-21T10:10:00Z"
time_limit = "2026-06-21T16:00:00Z"
line = [[50.7505, -1.4600], [50.7505, -1.4000]]
marks = [{ name = "North", at = [50.7800, -1.4300], zone = 5000 }]
finish = [[50.8000, -1.5000], [50.8000, -1.3500]]
"""
with open(os.path.join(work, "races.toml"), "w") as f:
    f.write(race_toml * 3)
office_port = free_port()
office = subprocess.Popen([binary, "fleet", "--role", "web", "--store", store, "--listen", f"127.0.0.1:{office_port}",
                           "--entries", os.path.join(work, "entries.csv"), "--races", os.path.join(work, "races.toml")],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
procs.append(office)
time.sleep(3)
times = []
answers = []
for n in range(3):
    # Asked for, a past race is read from the store a few boats a turn, the web side answering meanwhile.
    t = time.monotonic()
    while True:
        a = time.monotonic()
        standings = json.load(urllib.request.urlopen(f"http://127.0.0.1:{office_port}/telltale/v1/fleet/races/{n}",
                                                     timeout=300))
        answers.append(time.monotonic() - a)
        if standings["complete"]:
            break
        time.sleep(0.5)
    times.append(time.monotonic() - t)
t = time.monotonic()
urllib.request.urlopen(f"http://127.0.0.1:{office_port}/telltale/v1/fleet/races/0/results.csv", timeout=60).read()
kept = time.monotonic() - t
finished = sum(1 for b in standings["boats"] if b["status"] == "finished")
print(f"  the race office on the six-hour race: standings of {len(standings['boats'])} boats ({finished} finished) "
      f"read whole from the store in {min(times):.1f} s (best of 3; {', '.join(f'{x:.1f}' for x in times)}; "
      f"each answer meanwhile within {max(answers) * 1000:.0f} ms), "
      f"the results CSV from the kept standings in {kept * 1000:.0f} ms; the web side's peak RSS "
      f"{memory_kb(office.pid, 'VmHWM') / 1024:.1f} MB", flush=True)
stop(office)

# The same race replayed in the browser: headless chromium on the web side's panel, Replay, the race's day chosen;
# the first picture is every boat's track drawn to the race's start (the panel's own measure, from the click: the
# days, the span, the tracks fetched, parsed and drawn).
sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
from browser import chromium  # noqa: E402
driver = chromium(1280, 900)
try:
    driver.get(f"http://127.0.0.1:{web_port}/")
    wait_for(lambda: driver.execute_script("return !!document.querySelector('.replay-open')"), 30, step=0.2)
    driver.execute_script("document.querySelector('.replay-open').click()")
    wait_for(lambda: driver.execute_script("return !!(window.telltaleReplay && window.telltaleReplay.shown)"), 60,
             step=0.2)
    pictures = []
    refined = []
    for _ in range(3):
        # The previous one's finer tracks in first: one web side answers one request at a time.
        wait_for(lambda: driver.execute_script("return !!(window.telltaleReplay && window.telltaleReplay.refined)"),
                 60, step=0.1)
        driver.execute_script("window.telltaleReplay = null; const s = document.querySelector('.replay-day'); "
                              "s.value = '2026-06-21'; s.dispatchEvent(new Event('change'));")
        wait_for(lambda: driver.execute_script("return !!(window.telltaleReplay && window.telltaleReplay.day === "
                                               "'2026-06-21')"), 60, step=0.1)
        pictures.append(driver.execute_script("return window.telltaleReplay.firstPicture"))
        t = time.monotonic()
        wait_for(lambda: driver.execute_script("return !!window.telltaleReplay.refined"), 60, step=0.1)
        refined.append(time.monotonic() - t)
    boats = driver.execute_script("return window.telltaleReplay.boats.length")
    print(f"  the six-hour race in chromium (1280x900): Replay, its day chosen, {boats} boats' tracks drawn: first "
          f"picture in {min(pictures) / 1000:.2f} s (best of 3; {', '.join(f'{p / 1000:.2f}' for p in pictures)}), "
          f"a point a minute {min(refined):.2f} s later",
          flush=True)
finally:
    driver.quit()
