"""The fleet on SQLite (fleet_store_check.py, section 5): `telltale fleet` with no `--store`, a gateway and 40 boats
of the load generator; each batch once, in the file it made in its working folder."""
import json
import os
import sqlite3
import subprocess
import sys
import time

import race_boats
from fleet_store_race import compare_race
from fleet_store_once import tally
from support import free_port, stop


python = sys.executable
HERE = os.path.dirname(os.path.abspath(__file__))


def sqlite_alone(binary, check, get, gun, ports, procs, work):
    """5. SQLite with no --store: each batch once in the file the fleet made in its folder; the race's standings again."""
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
    _, _, reference2, wrong2, misplaced2, finished2 = compare_race(get, gun, f"http://127.0.0.1:{fleet_port}")
    check(not wrong2 and not misplaced2 and finished2 >= 6 and len(reference2) == 11,
          f"the same race's standings from the SQLite store agree with the rules read again ({finished2} finished)",
          {"wrong": wrong2, "misplaced": misplaced2})
    race.stopping.set()
    stop(alone)
    load2 = json.load(open(report2)) if os.path.exists(report2) else {}
    acked2 = load2.get("boats", {})
    path = os.path.join(laptop, "telltale-fleet.sqlite")
    rows = []
    if os.path.exists(path):
        db = sqlite3.connect(path)
        rows = db.execute("SELECT boat, seq, count(*) FROM fleet_batches WHERE boat LIKE 'lap-%' GROUP BY boat, seq")\
            .fetchall()
    once = tally(rows, acked2, load2.get("unacknowledgedBatches", {}))
    ok = acked2 and not once["missing"] and not once["twice"] and not once["extra"]
    check(ok, f"SQLite with no --store: telltale-fleet.sqlite in its folder holds each of the "
          f"{sum(len(v) for v in acked2.values())} batches of 40 boats once",
          open(os.path.join(work, "laptop.log")).read()[-400:])
