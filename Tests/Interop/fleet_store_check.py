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
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from support import Checks, Gateway, demo_input, free_port, stop, wait_for, wait_for_ports  # noqa: E402
from webclient import HTTP  # noqa: E402
from shore import Postgres, mosquitto  # noqa: E402
import race_boats  # noqa: E402
from fleet_store_replay import committee_replay  # noqa: E402
from fleet_store_sqlite import sqlite_alone  # noqa: E402
from fleet_store_tracks import against_record, served_tracks  # noqa: E402
from fleet_store_race import compare_race, hms, standings  # noqa: E402
from fleet_store_once import tally  # noqa: E402

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
    wait_for_ports(port, seconds=5)
    return process


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
      sql("SELECT max(version) FROM telltale_schema") == [["4"]],
      "two ingest workers and a web side on the store; the schema made and migrated by the program (version 4)",
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
load_report = json.load(open(report)) if os.path.exists(report) else {}
acked = load_report.get("boats", {})
unanswered = load_report.get("unacknowledgedBatches", {})
expected = sum(len(v) for v in acked.values())


def stored():
    return int(sql("SELECT count(*) FROM fleet_batches WHERE boat LIKE 'load-%'")[0][0])


wait_for(lambda: stored() >= expected, 60, step=1)
time.sleep(3)

# ---- 4. Exactly once, nothing missing, nothing hostile -----------------------------------------------------------
once = tally(sql("SELECT boat, seq, count(*) FROM fleet_batches GROUP BY boat, seq"), acked, unanswered)
have, missing, twice, extra = once["have"], once["missing"], once["twice"], once["extra"]
check(expected > 2500 and not missing and not twice and not extra,
      f"every batch the brokers acknowledged of 300 boats is in the store exactly once ({expected} batches, "
      f"{summary.get('duplicates')} sent twice)",
      {"missing": dict(list(missing.items())[:5]), "twice": twice[:5], "extra": dict(list(extra.items())[:5]),
       "unacknowledged": summary.get("unacknowledged"), "storedUnacknowledged": once["storedUnacknowledged"]})
for name in names:
    seqs = sorted(have.get(name, set()))
    check(len(seqs) > 20 and seqs[0] == 1 and seqs == list(range(1, seqs[-1] + 1)),
          f"{name} (a real gateway, on broker {fnv(name, 2) + 1}): batches 1..{seqs[-1] if seqs else 0}, "
          "none missing, each once", gateways[name].log()[-400:] if not seqs else seqs[:5])
w1_log = open(os.path.join(work, "w1.log")).read()
check(workers["w1"].poll() is None and workers["w2"].poll() is None and web.poll() is None,
      "the workers ran on through the SIGKILL of one (started again), the broker's restart and the hostile input",
      w1_log[-400:])
# In the order they happened: a line the log's limiter said late says so.
happened = "\n".join(line for line in open(os.path.join(work, "w2.log")).read().splitlines() if "s late: held back" not in line)
check(brokers[ports[1]].poll() is None and "connected to the broker mqtt://127.0.0.1:%d" % ports[1] in
      happened.split("is down")[-1],
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

against_record(check, names, sql, work)


# The web side.
def get(path, base=None):
    """The body of a GET that must answer 200 (an error stops the check)."""
    status, body = HTTP(web_port).get(path) if base is None else HTTP(int(base.rsplit(":", 1)[1])).get(path)
    if status != 200:
        raise OSError(f"GET {path}: {status} {body[:200]!r}")
    return body


served_tracks(check, get, names, sql)

# The race office: the standings against the rules read again (race_boats.reference, GeographicLib).
data, served, reference, wrong, misplaced, finished = compare_race(get, gun)
check(not wrong and not misplaced and finished >= 6 and len(reference) == 11
      and not any(b["class"] == "Cruiser" for b in data.get("boats", [])),
      f"the race's standings: start (one boat over early, back), the mark rounded within its zone (one wide, not), "
      f"finish, distance sailed and to go, elapsed and corrected time (TCC, PY, one-design; the dinghies on their own "
      f"gun) and each class's places agree with the rules read again with GeographicLib ({finished} of 11 finished; "
      f"the silent boat marked)", {"wrong": wrong, "misplaced": misplaced})
import csv  # noqa: E402
import io  # noqa: E402
table = list(csv.DictReader(io.StringIO(get("/telltale/v1/fleet/races/0/results.csv").decode())))
_, served_now = standings(get)
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

committee_replay(check, get, names, race, sql, web, web_port, workers)
sqlite_alone(binary, check, get, gun, ports, procs, work)
check.finish()
