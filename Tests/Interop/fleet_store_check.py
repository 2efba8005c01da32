"""`telltale fleet` at race scale: PostgreSQL with PostGIS, two brokers, several ingest workers, a web side, real
gateways and a load generator; then the same on SQLite with no `--store`.

    fleet_store_check.py BINARY

1. Debian's PostgreSQL 15 and PostGIS 3, started by this check in a folder of its own (`initdb`, `pg_ctl`) as an
   unprivileged user; two mosquitto brokers with persistence; two ingest workers (`--role ingest`) on both brokers
   through the shared subscription, and a web side (`--role web`) reading the store.
2. Two `telltale run` gateways on the demo voyage (real time) with `[uplink] broker` listing both brokers (each boat
   on the one its id hashes to) and `[record]` on, and `Tests/Interop/fleet_load.py` publishing as 300 more boats
   (a batch each 2 s, every group at 1 Hz, some batches twice, a hostile message every tenth batch).
   Beside them, `race_boats.py` sails a club race of eleven boats in three classes (its past at once, as late
   history, then live); the web side has the race office's files (`--entries`, `--races`).
3. Mid-stream one worker is killed with SIGKILL and started again 5 s later, one broker is stopped and started
   again (its persistence file kept), and PostgreSQL is stopped as by a crash (`pg_ctl -m immediate`) and started
   again 5 s later.
4. Afterwards: every batch the brokers acknowledged, of every boat, is in the store exactly once; the gateways'
   numbers run from 1 with no gap; nothing hostile was stored (refused and counted); the workers ran throughout;
   a PostGIS query (no Telltale code) measures the distance along each gateway's track and it agrees with the
   distance along the fixes in the gateway's own record (GeographicLib) within 0.1 %; the web side lists every
   boat and serves a boat's track as GPX that gpxpy reads, point for point as the store holds it; in chromium the
   Fleet layout lists every boat, and Replay draws the span kept, its slider putting each gateway's boat where the
   store has it at that moment, and plays on.
   The race: each boat's start, marks, finish, distance sailed and to go, elapsed and corrected time and its places
   in its class agree with the rules read again independently (`race_boats.reference`, GeographicLib); the results
   CSV says the same; in chromium the class filter shows one class, the boat gone silent is marked as stopped
   reporting, and the race table lists the class in corrected and then elapsed order.
5. The same with SQLite: `telltale fleet` (role all) with no `--store`, a gateway and 40 boats of the load generator:
   each batch once, in the file it made in its working folder.
"""
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from support import ROOT, Checks, Gateway, free_port, stop, wait_for, demo_input  # noqa: E402
from webclient import HTTP  # noqa: E402
from shore import Postgres, mosquitto  # noqa: E402
import race_boats  # noqa: E402

binary = os.path.abspath(sys.argv[1])
python = sys.executable
work = tempfile.mkdtemp(prefix="fleet-store-")
os.chmod(work, 0o755)
check = Checks("fleet-store-check")
procs = []
outside = []
database = None


def cleanup():
    for p in procs:
        if p.poll() is None:
            stop(p)
    if database:
        database.remove()
    for folder in outside:
        shutil.rmtree(folder, ignore_errors=True)


import atexit  # noqa: E402
atexit.register(cleanup)


def fnv(boat, count):
    h = 2166136261
    for byte in boat.encode():
        h ^= byte
        h = (h * 16777619) & 0xFFFFFFFF
    return h % count


# ---- 1. PostgreSQL, two brokers, workers, the web side -----------------------------------------------------------
database = Postgres(free_port())
pg, pg_port = database.folder, database.port
check(database.ok,
      "Debian's PostgreSQL 15 made and started in the check's folder as an unprivileged user (initdb, pg_ctl)",
      database.errors)
STORE = database.url
sql = database.sql


ports = [free_port(), free_port()]
brokers = {}


def broker(port):
    process, keep = mosquitto(port, work, log=os.path.join(work, f"mosquitto-{port}.log"))
    if keep not in outside:
        outside.append(keep)
    procs.append(process)
    brokers[port] = process
    wait_for(lambda: _listening(port), 5)
    return process


def _listening(port):
    import socket
    try:
        socket.create_connection(("127.0.0.1", port), 0.2).close()
        return True
    except OSError:
        return False


for port in ports:
    broker(port)
BROKER_ARGS = sum([["--broker", f"mqtt://127.0.0.1:{p}"] for p in ports], [])
workers = {}


def worker(name, keeper=False):
    process = subprocess.Popen([binary, "fleet", *BROKER_ARGS, "--role", "ingest", "--worker", name, "--store", STORE,
                                "--journal", os.path.join(work, f"{name}.journal")] + (["--keeper"] if keeper else []),
                               stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, f"{name}.log"), "a"))
    procs.append(process)
    workers[name] = process
    return process


worker("w1")
worker("w2", keeper=True)
web_port = free_port()
# The race office's files: a race whose gun went 40 minutes ago.
gun = round(time.time()) - 2400
with open(os.path.join(work, "entries.csv"), "w") as f:
    f.write(race_boats.entries_csv())
with open(os.path.join(work, "races.toml"), "w") as f:
    f.write(race_boats.races_toml(gun))
web = subprocess.Popen([binary, "fleet", "--role", "web", "--store", STORE, "--listen", f"127.0.0.1:{web_port}",
                        "--entries", os.path.join(work, "entries.csv"), "--races", os.path.join(work, "races.toml")],
                       stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "web.log"), "w"))
procs.append(web)
time.sleep(2)
check(all(p.poll() is None for p in workers.values()) and web.poll() is None and
      sql("SELECT max(version) FROM telltale_schema") == [["2"]],
      "two ingest workers and a web side on the store; the schema made and migrated by the program (version 2)",
      open(os.path.join(work, "w1.log")).read()[-500:])

# ---- 2. Real gateways and the load -------------------------------------------------------------------------------
names = []
n = 0
while len(names) < 2:
    name = f"real-{n}"
    if fnv(name, 2) == len(names):
        names.append(name)
    n += 1
gateways = {}
for name in names:
    folder = os.path.join(work, name)
    os.makedirs(os.path.join(folder, "state"))
    os.makedirs(os.path.join(folder, "record"))
    brokers_list = ", ".join(f'"mqtt://127.0.0.1:{p}"' for p in ports)
    gateways[name] = Gateway(binary, f"""status_line = false
state_file = "{folder}/state/state.toml"
{demo_input('voyage', speed=1)}[record]
directory = "{folder}/record"
[uplink]
broker = [{brokers_list}]
boat = "{name}"
batch_seconds = 2
send = ["position", "wind", "alarms"]
[uplink.rates]
position = 1
wind = 1
""", work=folder).start()
report = os.path.join(work, "load.json")
load = subprocess.Popen([python, os.path.join(HERE, "fleet_load.py"), "--brokers", ",".join(map(str, ports)),
                         "--boats", "300", "--seconds", "60", "--batch", "2", "--report", report, "--duplicates",
                         "--hostile"], stdout=subprocess.PIPE, stderr=open(os.path.join(work, "load.log"), "w"),
                        text=True)
procs.append(load)
race = race_boats.Publisher(ports, gun)
race.start()
start = time.monotonic()


def at(seconds):
    while time.monotonic() - start < seconds:
        time.sleep(0.1)


# ---- 3. A worker killed, a broker restarted ----------------------------------------------------------------------
at(15)
os.kill(workers["w1"].pid, signal.SIGKILL)
workers["w1"].wait()
at(20)
worker("w1")
at(32)
brokers[ports[1]].send_signal(signal.SIGTERM)
brokers[ports[1]].wait(10)
at(36)
broker(ports[1])
at(42)
crashed = database.stop("immediate")
at(47)
restarted = database.start()
load_out, _ = load.communicate(timeout=150)
summary = json.loads(load_out.strip().splitlines()[-1]) if load_out.strip() else {}
at(70)
for g in gateways.values():
    g.stop()
acked = json.load(open(report))["boats"] if os.path.exists(report) else {}
expected = sum(len(v) for v in acked.values())


def stored():
    return int(sql("SELECT count(*) FROM fleet_batches WHERE boat LIKE 'load-%'")[0][0])


wait_for(lambda: stored() >= expected, 60, step=1)
time.sleep(3)

# ---- 4. Exactly once, nothing missing, nothing hostile -----------------------------------------------------------
rows = sql("SELECT boat, seq, count(*) FROM fleet_batches GROUP BY boat, seq")
have = {}
twice = []
for boat, seq, count in rows:
    have.setdefault(boat, set()).add(int(seq))
    if int(count) != 1:
        twice.append((boat, seq, count))
missing = {b: sorted(set(s) - have.get(b, set()))[:5] for b, s in acked.items() if set(s) - have.get(b, set())}
extra = {b: sorted(have.get(b, set()) - set(s))[:5] for b, s in acked.items() if have.get(b, set()) - set(s)}
check(expected > 2500 and not missing and not twice and not extra,
      f"every batch the brokers acknowledged of 300 boats is in the store exactly once ({expected} batches, "
      f"{summary.get('duplicates')} sent twice)",
      {"missing": dict(list(missing.items())[:5]), "twice": twice[:5], "extra": dict(list(extra.items())[:5]),
       "unacknowledged": summary.get("unacknowledged")})
for name in names:
    seqs = sorted(have.get(name, set()))
    check(len(seqs) > 20 and seqs[0] == 1 and seqs == list(range(1, seqs[-1] + 1)),
          f"{name} (a real gateway, on broker {fnv(name, 2) + 1}): batches 1..{seqs[-1] if seqs else 0}, "
          "none missing, each once", gateways[name].log()[-400:] if not seqs else seqs[:5])
w1_log = open(os.path.join(work, "w1.log")).read()
check(workers["w1"].poll() is None and workers["w2"].poll() is None and web.poll() is None,
      "the workers ran on through the SIGKILL of one (started again), the broker's restart and the hostile input",
      w1_log[-400:])
check(brokers[ports[1]].poll() is None and "connected to the broker mqtt://127.0.0.1:%d" % ports[1] in
      open(os.path.join(work, "w2.log")).read().split("is down")[-1],
      "the workers reconnected to the restarted broker")
logs = "".join(open(os.path.join(work, f"{w}.log")).read() for w in ("w1", "w2"))
check(crashed and restarted and "the store takes writes again" in logs,
      "PostgreSQL stopped as by a crash mid-stream and started 5 s later: the workers held on and wrote again "
      "(and the batches above are all there)", logs[-400:])
refused = sum(int(r[0]) for r in sql("SELECT refused FROM fleet_workers"))
bad = sql("SELECT count(*) FROM fleet_batches WHERE seq > 1000000 OR boat NOT LIKE 'load-%' AND boat NOT LIKE "
          "'real-%' AND boat NOT LIKE 'race-%'")[0][0]
known = set(acked) | set(names) | {b[0] for b in race_boats.BOATS}
strangers = [r[0] for r in sql("SELECT boat FROM fleet_boats") if r[0] not in known]
hostile = summary.get("hostileAcknowledged", 0)
check(hostile > 100 and refused >= hostile and bad == "0" and not strangers,
      f"hostile input refused and counted, never stored ({hostile} taken by the brokers: broken JSON, 2 MB, another "
      f"boat's batch, a boat id that is not one, 1970, 'maybe'; {refused} refused)",
      {"bad batches": bad, "strangers": strangers[:5]})

# PostGIS against the gateway's own record, with GeographicLib.
from geographiclib.geodesic import Geodesic  # noqa: E402


def fixes(folder):
    out = []
    for file in sorted(os.listdir(folder)):
        if not file.endswith(".nmea"):
            continue
        for line in open(os.path.join(folder, file), errors="replace"):
            body = line.strip().split("\\")[-1]
            f = body.split(",")
            if not f[0].endswith("RMC") or len(f) < 10 or f[2] != "A":
                continue
            hh, mm, ss = int(f[1][0:2]), int(f[1][2:4]), float(f[1][4:])
            day, month, year = int(f[9][0:2]), int(f[9][2:4]), 2000 + int(f[9][4:6])
            import calendar
            t = calendar.timegm((year, month, day, hh, mm, 0)) + ss
            lat = int(f[3][:2]) + float(f[3][2:]) / 60
            lat = -lat if f[4] == "S" else lat
            lon = int(f[5][:3]) + float(f[5][3:]) / 60
            lon = -lon if f[6] == "W" else lon
            out.append((t, lat, lon))
    return out


for name in names:
    stored_points = [(float(t), float(lat), float(lon)) for t, lat, lon in sql(
        f"SELECT extract(epoch from time), ST_Y(position::geometry), ST_X(position::geometry) FROM fleet_positions "
        f"WHERE boat = '{name}' ORDER BY time")]
    postgis = sql(f"SELECT sum(d) FROM (SELECT ST_Distance(position, lag(position) OVER (ORDER BY time)) AS d "
                  f"FROM fleet_positions WHERE boat = '{name}') AS legs")[0][0]
    # The gateway's own record: its fixes at the times of the stored points (the uplink samples a fix a second).
    recorded = {round(t, 2): (t, lat, lon) for t, lat, lon in fixes(os.path.join(work, name, "record"))}
    own = [recorded.get(round(t, 2)) for t, _, _ in stored_points]
    matched = [p for p in own if p]
    same = all(p and abs(p[1] - q[1]) < 1e-6 and abs(p[2] - q[2]) < 1e-6 for p, q in zip(own, stored_points))
    geodesic = sum(Geodesic.WGS84.Inverse(a[1], a[2], b[1], b[2])["s12"] for a, b in zip(matched, matched[1:]))
    store_m = float(postgis or 0)
    check(geodesic > 100 and same and abs(store_m - geodesic) <= 0.001 * geodesic,
          f"{name}: PostGIS distance along the stored track {store_m:.1f} m, GeographicLib along the same fixes in the "
          f"gateway's own record {geodesic:.1f} m: within 0.1 % ({len(stored_points)} points, each a recorded fix)",
          f"{len(matched)} of {len(stored_points)} matched")

# The web side.
def get(path, base=None):
    """The body of a GET that must answer 200 (an error stops the check)."""
    status, body = HTTP(web_port).get(path) if base is None else HTTP(int(base.rsplit(":", 1)[1])).get(path)
    if status != 200:
        raise OSError(f"GET {path}: {status} {body[:200]!r}")
    return body


fleet = {}
for _ in range(10):
    fleet = json.loads(get("/telltale/v1/fleet"))
    if len(fleet.get("boats", [])) >= 302:
        break
    time.sleep(1)
check(fleet.get("fleet") is True and len(fleet.get("boats", [])) >= 302,
      f"the web side, reading only the store, lists every boat ({len(fleet.get('boats', []))})")
import gpxpy  # noqa: E402
gpx = gpxpy.parse(get(f"/telltale/v1/fleet/boats/{names[0]}/track.gpx").decode())
points = [p for t in gpx.tracks for s in t.segments for p in s.points]
count = int(sql(f"SELECT count(DISTINCT time) FROM fleet_positions WHERE boat = '{names[0]}'")[0][0])
check(len(points) == count and count > 20,
      f"{names[0]}'s track as GPX read by gpxpy: {len(points)} points, as the store holds them ({count})")
partitions = sql("SELECT count(*) FROM pg_inherits JOIN pg_class ON pg_class.oid = inhrelid "
                 "WHERE inhparent = 'fleet_positions'::regclass")[0][0]
check(int(partitions) >= 2,
      f"positions in day partitions ({partitions}: the demo voyage's day and today's), dropped whole when a race is "
      "old")

# The race office: the standings against the rules read again (race_boats.reference, GeographicLib).
def hms(seconds):
    total = round(seconds)
    return f"{total // 3600}:{total // 60 % 60:02d}:{total % 60:02d}"


def standings(base=None):
    """The race's standings once the web side has read all of it from the store (a few boats a second)."""
    data = {}
    for _ in range(60):
        data = json.loads(get("/telltale/v1/fleet/races/0", base))
        if data.get("complete"):
            break
        time.sleep(0.5)
    return data, {b["id"]: b for b in data.get("boats", [])}


def compare_race(base=None):
    """The served standings against race_boats.reference at each boat's last position: (data, served, reference,
    what differs, what is placed otherwise, how many finished)."""
    data, served = standings(base)
    wrong = {}
    reference = {}
    for n, (boat, group, *_rest) in enumerate(race_boats.BOATS):
        b = served.get(boat)
        if not b or not b.get("last"):
            wrong[boat] = "not in the standings"
            continue
        ref = race_boats.reference(n, gun, b["last"][0])
        reference[boat] = ref
        problems = []
        if b["status"] != ref["status"] or b["class"] != group:
            problems.append(("status", b["status"], ref["status"]))
        for key, tolerance in (("started", 0.5), ("finished", 0.5), ("elapsed", 0.5)):
            if (b[key] is None) != (ref[key] is None) or (b[key] is not None and abs(b[key] - ref[key]) > tolerance):
                problems.append((key, b[key], ref[key]))
        if abs(b["sailed"] - ref["sailed"]) > 0.001 * ref["sailed"] + 1:
            problems.append(("sailed", b["sailed"], ref["sailed"]))
        if (b["toGo"] is None) != (ref["toGo"] is None) or (b["toGo"] is not None and
                                                            abs(b["toGo"] - ref["toGo"]) > 2):
            problems.append(("toGo", b["toGo"], ref["toGo"]))
        if (b["corrected"] is None) != (ref["corrected"] is None) or (
                b["corrected"] is not None and abs(b["corrected"] - ref["corrected"]) > 0.5 + 0.002 * ref["corrected"]):
            problems.append(("corrected", b["corrected"], ref["corrected"]))
        if len(b["rounded"]) != ref["rounded"] or b["stopped"] != (race_boats.BOATS[n][5] == "silent"):
            problems.append(("rounded/stopped", len(b["rounded"]), b["stopped"]))
        if problems:
            wrong[boat] = problems
    # Places in each class from the reference's own values.
    order = {"finished": 0, "racing": 1, "did not finish": 2, "not started": 3}
    places = {}
    for group in ("IRC", "Sonar", "Dinghy"):
        boats = [b[0] for b in race_boats.BOATS if b[1] == group and b[0] in reference]
        by_elapsed = sorted(boats, key=lambda x: (order[reference[x]["status"]], reference[x]["elapsed"]
                                                  if reference[x]["status"] == "finished" else reference[x]["toGo"]))
        by_corrected = sorted(boats, key=lambda x: (order[reference[x]["status"]], reference[x]["corrected"]
                                                    or float("inf")))
        for i, boat in enumerate(by_elapsed):
            places.setdefault(boat, {})["placeElapsed"] = i + 1
        for i, boat in enumerate(by_corrected):
            places[boat]["placeCorrected"] = i + 1
    misplaced = {b: (served[b]["placeElapsed"], served[b]["placeCorrected"], p) for b, p in places.items()
                 if (served[b]["placeElapsed"], served[b]["placeCorrected"]) != (p["placeElapsed"],
                                                                                 p["placeCorrected"])}
    finished = sum(1 for r in reference.values() if r["status"] == "finished")
    return data, served, reference, wrong, misplaced, finished


data, served, reference, wrong, misplaced, finished = compare_race()
check(not wrong and not misplaced and finished >= 6 and len(reference) == 11
      and not any(b["class"] == "Cruiser" for b in data.get("boats", [])),
      f"the race's standings: start (one boat over early, back), the mark rounded within its zone (one wide, not), "
      f"finish, distance sailed and to go, elapsed and corrected time (TCC, PY, one-design; the dinghies on their own "
      f"gun) and each class's places agree with the rules read again with GeographicLib ({finished} of 11 finished; "
      f"the silent boat marked)", {"wrong": wrong, "misplaced": misplaced})
import csv  # noqa: E402
import io  # noqa: E402
table = list(csv.DictReader(io.StringIO(get("/telltale/v1/fleet/races/0/results.csv").decode())))
_, served_now = standings()
csv_ok = len(table) == 11
for row in table:
    b = served_now.get(row["Boat"])
    ref = reference.get(row["Boat"])
    want = {"finished": "FIN", "racing": "stopped reporting" if b and b["stopped"] else "racing"}.get(
        b["status"] if b else "", "?")
    if not b or int(row["Place"]) != b["placeCorrected"] or row["Status"] != want or (
            b["status"] == "finished" and (row["Elapsed"] != hms(b["elapsed"]) or row["Corrected"] !=
                                           hms(b["corrected"]) or abs(b["elapsed"] - ref["elapsed"]) > 0.5)):
        csv_ok = False
check(csv_ok, f"the results as CSV (read by Python's csv): {len(table)} boats, class by class in corrected order, "
      "times as h:mm:ss", table[:3])

# The committee's replay in chromium, from the web side: the span kept, the slider, the boats where the store says.
from browser import chromium  # noqa: E402
driver = chromium(1024, 900)
try:
    driver.get(f"http://127.0.0.1:{web_port}/")
    wait_for(lambda: driver.execute_script("return document.querySelectorAll('.fleet-table tbody tr').length") >= 302,
             20, step=0.5)
    rows = driver.execute_script("return document.querySelectorAll('.fleet-table tbody tr').length")
    gpx_link = driver.execute_script(
        f"const a = document.querySelector('.fleet-table a[href$=\"/{names[0]}/track.gpx\"]'); return a && a.href")
    check(rows >= 302 and gpx_link, f"the Fleet layout from the web side lists {rows} boats, each with its track as GPX")
    # The committee's views: one class, the boat gone silent, the race in corrected and elapsed order.
    driver.execute_script("const s = document.querySelector('.fleet-class'); s.value = 'IRC'; "
                          "s.dispatchEvent(new Event('change'));")
    irc = [b[0] for b in race_boats.BOATS if b[1] == "IRC"]
    # The silent boat's last batch reached the store when the race's past was published: two minutes on, it is marked.
    row_text = "const r = document.querySelector('.fleet-table tr[data-boat=\"race-irc-5\"]'); return r && r.textContent"
    wait_for(lambda: "stopped reporting" in (driver.execute_script(row_text) or ""), 90, step=1)
    shown_rows = driver.execute_script(
        "return [...document.querySelectorAll('.fleet-table tbody tr')].map(r => [r.dataset.boat, r.textContent])")
    silent = [r for r in shown_rows if "stopped reporting" in r[1]]
    check(sorted(r[0] for r in shown_rows) == sorted(irc) and [r[0] for r in silent] == ["race-irc-5"],
          f"the Fleet layout filtered by class: IRC shows its {len(irc)} boats alone, with names and sail numbers, "
          "and the one silent for more than two minutes marked as stopped reporting", shown_rows[:12])
    driver.execute_script("document.querySelector('.race-open').click()")
    wait_for(lambda: driver.execute_script("return !!window.telltaleRace"), 20, step=0.2)
    _, now_served = standings()
    want_corrected = sorted(irc, key=lambda b: now_served[b]["placeCorrected"])
    want_elapsed = sorted(irc, key=lambda b: now_served[b]["placeElapsed"])
    corrected_rows = driver.execute_script("return window.telltaleRace.rows")
    driver.execute_script("const s = document.querySelector('.race-order'); s.value = 'elapsed'; "
                          "s.dispatchEvent(new Event('change'));")
    elapsed_rows = driver.execute_script("return window.telltaleRace.rows")
    marks = driver.execute_script("return document.querySelectorAll('.race-mark').length")
    check(corrected_rows == want_corrected and elapsed_rows == want_elapsed and want_corrected != want_elapsed
          and marks == 1,
          f"the race in chromium, IRC alone: by corrected time {corrected_rows}, by elapsed time {elapsed_rows} "
          "(as the standings place them), the course's mark on the chart",
          {"corrected": want_corrected, "elapsed": want_elapsed, "marks": marks})
    driver.execute_script("document.querySelector('.race-close').click(); const s = "
                          "document.querySelector('.fleet-class'); s.value = ''; s.dispatchEvent(new Event('change'));")
    driver.execute_script("document.querySelector('.replay-open').click()")
    wait_for(lambda: driver.execute_script("return !!(window.telltaleReplay && window.telltaleReplay.shown)"), 30,
             step=0.2)
    replay = driver.execute_script("const r = window.telltaleReplay; return r && {first: r.firstPicture, "
                                   "boats: r.boats.length, day: r.day}") or {}
    check(replay.get("boats", 0) >= 300,
          f"Replay: every boat's track on the newest day kept ({replay.get('day')}: {replay.get('boats')} boats, the "
          f"first picture in {replay.get('first', 0):.0f} ms)")
    # The gateways' day (the demo voyage's), chosen in the list: the slider to a moment inside their span.
    first_real, last_real = (float(v) for v in sql(
        f"SELECT extract(epoch from min(time)), extract(epoch from max(time)) FROM fleet_positions "
        f"WHERE boat = '{names[0]}'")[0])
    voyage_day = time.strftime("%Y-%m-%d", time.gmtime(first_real))
    driver.execute_script("const s = document.querySelector('.replay-day'); s.value = arguments[0]; "
                          "s.dispatchEvent(new Event('change'));", voyage_day)
    wait_for(lambda: driver.execute_script("return !!(window.telltaleReplay && window.telltaleReplay.day === "
                                           "arguments[0])", voyage_day), 20, step=0.2)
    moment = round((first_real + last_real) / 2)
    driver.execute_script("const s = document.querySelector('.replay-slider'); s.value = arguments[0]; "
                          "s.dispatchEvent(new Event('input'));", moment)
    shown = {b["id"]: b for b in driver.execute_script("return window.telltaleReplay.shown")}
    agree = []
    for name in names:
        row = sql(f"SELECT extract(epoch from time), ST_Y(position::geometry), ST_X(position::geometry) FROM "
                  f"fleet_positions WHERE boat = '{name}' AND time <= to_timestamp({moment}) ORDER BY time DESC LIMIT 1")
        b = shown.get(name)
        agree.append(bool(row and b and abs(float(row[0][0]) - b["time"]) < 0.01 and
                          abs(float(row[0][1]) - b["latitude"]) < 1e-6 and abs(float(row[0][2]) - b["longitude"]) < 1e-6))
    label = driver.execute_script("return document.querySelector('.replay-time').textContent")
    check(all(agree), f"the slider at {label}: both gateways' boats drawn where the store has them at that moment",
          {n: shown.get(n) for n in names})
    driver.execute_script("document.querySelector('.replay-speed').value = '1200'; "
                          "document.querySelector('.replay-play').click()")
    time.sleep(2)
    played = driver.execute_script("return window.telltaleReplay.time")
    check(played > moment, f"played at x1200, the replay moved on ({played - moment:.0f} s of race in 2 s)")
finally:
    driver.quit()
race.stopping.set()

for p in list(workers.values()) + [web]:
    stop(p)

# ---- 5. SQLite, no --store ---------------------------------------------------------------------------------------
laptop = os.path.join(work, "laptop")
os.makedirs(laptop)
port = ports[0]
fleet_port = free_port()
alone = subprocess.Popen([binary, "fleet", "--broker", f"mqtt://127.0.0.1:{port}", "--listen",
                          f"127.0.0.1:{fleet_port}", "--entries", os.path.join(work, "entries.csv"), "--races",
                          os.path.join(work, "races.toml")], cwd=laptop, stdout=subprocess.DEVNULL,
                         stderr=open(os.path.join(work, "laptop.log"), "w"))
procs.append(alone)
time.sleep(1)
race = race_boats.Publisher([port], gun)
race.start()
report2 = os.path.join(work, "load2.json")
subprocess.run([python, os.path.join(HERE, "fleet_load.py"), "--brokers", str(port), "--boats", "40",
                "--seconds", "15", "--batch", "2", "--prefix", "lap", "--report", report2, "--duplicates",
                "--hostile"], capture_output=True, timeout=120)
time.sleep(3)
_, _, reference2, wrong2, misplaced2, finished2 = compare_race(f"http://127.0.0.1:{fleet_port}")
check(not wrong2 and not misplaced2 and finished2 >= 6 and len(reference2) == 11,
      f"the same race's standings from the SQLite store agree with the rules read again ({finished2} finished)",
      {"wrong": wrong2, "misplaced": misplaced2})
race.stopping.set()
stop(alone)
acked2 = json.load(open(report2))["boats"] if os.path.exists(report2) else {}
path = os.path.join(laptop, "telltale-fleet.sqlite")
rows = []
if os.path.exists(path):
    db = sqlite3.connect(path)
    rows = db.execute("SELECT boat, seq, count(*) FROM fleet_batches WHERE boat LIKE 'lap-%' GROUP BY boat, seq")\
        .fetchall()
have2 = {}
for boat, seq, c in rows:
    have2.setdefault(boat, []).append((seq, c))
ok = acked2 and all(sorted(s for s, _ in have2.get(b, [])) == sorted(v) for b, v in acked2.items()) and \
    all(c == 1 for v in have2.values() for _, c in v)
check(ok, f"SQLite with no --store: telltale-fleet.sqlite in its folder holds each of the "
      f"{sum(len(v) for v in acked2.values())} batches of 40 boats once",
      open(os.path.join(work, "laptop.log")).read()[-400:])
check.finish()
