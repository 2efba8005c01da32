"""The class polar ashore (#50, calibration_check.py): three boats of a one-design class and one of another send
their sailing ashore; `telltale fleet polar` learns the class's polar from the store.

Each boat sails the star of calibration_polar.py in `telltale simulate` (8 or 12 kn, steady, no mast motion). What
she would send ashore (the uplink's position and wind groups every 10 s: apparent wind angle and speed, heading, speed
through the water, course and speed over ground, and the attitude group's heel, in Signal K's units) is made here from the simulator's own truth,
in batches as the uplink writes them, and put into a SQLite store `telltale fleet` made. The fourth boat, of another
class, sails a polar 20 % faster: the class's polar must not see her. Each cell of the class polar is judged against
the simulator's polar where its minutes lay (within 3 %).
"""
import csv
import datetime
import json
import math
import os
import sqlite3
import subprocess

from calibration_polar import interpolate, star, table

BOATS = (("kestrel", "J70", 8, 1), ("tern", "J70", 12, 2), ("gannet", "J70", 12, 3), ("skua", "Fast", 12, 4))


def uplink_batches(boat, truth, every=10.0, per_batch=60):
    """The boat's samples every `every` seconds from the truth, in batches of `per_batch` instants (JSON texts)."""
    rows, last = [], None
    with open(truth) as f:
        for row in csv.DictReader(f):
            t = float(row["time_s"])
            if last is None or t - last >= every - 1e-6:
                rows.append(row)
                last = t
    batches = []
    for start in range(0, len(rows), per_batch):
        samples = []
        for row in rows[start:start + per_batch]:
            t = float(row["time_s"])
            stamp = datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            for path, value in (
                    ("environment.wind.angleApparent", math.radians(float(row["awa"]))),
                    ("environment.wind.speedApparent", float(row["aws_kn"]) * 1852 / 3600),
                    ("navigation.headingTrue", math.radians(float(row["heading"]))),
                    ("navigation.speedThroughWater", float(row["stw_kn"]) * 1852 / 3600),
                    ("navigation.courseOverGroundTrue", math.radians(float(row["cog"]))),
                    ("navigation.speedOverGround", float(row["sog_kn"]) * 1852 / 3600)):
                samples.append({"path": path, "value": value, "timestamp": stamp, "$source": "sim"})
            samples.append({"path": "navigation.attitude", "timestamp": stamp, "$source": "sim", "value": {
                "roll": math.radians(float(row["heel"])), "pitch": math.radians(float(row["pitch"])), "yaw": None}})
        times = [float(r["time_s"]) for r in rows[start:start + per_batch]]
        batches.append((len(batches) + 1, times[0], times[-1], json.dumps(
            {"boat": boat, "seq": len(batches) + 1, "late": False, "count": len(samples), "thinned": 0, "alarms": 0,
             "samples": samples})))
    return batches


def class_polar(binary, check, work):
    route = os.path.join(work, "class-star.gpx")
    star(route)
    fast = os.path.join(work, "fast.csv")
    store = os.path.join(work, "fleet.sqlite")
    subprocess.run([binary, "fleet", "account", "list", "--store", store], check=True, capture_output=True, timeout=60)
    db = sqlite3.connect(store)
    own = None
    for boat, group, knots, seed in BOATS:
        out = os.path.join(work, "class-" + boat)
        extra = ["--polar", fast] if group == "Fast" else []
        subprocess.run([binary, "simulate", "--route", route, "--output", out, "--duration", "14400", "--wind-speed",
                        str(knots), "--roll", "0", "--mast-height", "0", "--seed", str(seed), "--gust", "0",
                        "--shift", "0", *extra], check=True, capture_output=True, timeout=600)
        if own is None:
            own = table(os.path.join(out, "polar.csv"))
            with open(os.path.join(out, "polar.csv")) as f, open(fast, "w") as g:
                lines = f.read().strip().split("\n")
                g.write(lines[0] + "\n")
                for line in lines[1:]:
                    cells = line.split(";")
                    g.write(";".join([cells[0]] + [f"{float(c) * 1.2:.2f}" if c else "" for c in cells[1:]]) + "\n")
        for seq, first, last, text in uplink_batches(boat, os.path.join(out, "truth.csv")):
            day = datetime.datetime.fromtimestamp(first, datetime.timezone.utc).strftime("%Y-%m-%d")
            db.execute("INSERT INTO fleet_batches (boat, seq, day, received, first_time, last_time, count, thinned, "
                       "alarms, late, batch) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)",
                       (boat, seq, day, last, first, last, 360, text))
    db.commit()
    db.close()
    entries = os.path.join(work, "fleet.csv")
    with open(entries, "w") as f:
        f.write("boat,name,class\n" + "".join(f"{b},{b.title()},{g}\n" for b, g, _, _ in BOATS))
    learnt = os.path.join(work, "j70.csv")
    result = subprocess.run([binary, "fleet", "polar", "--store", store, "--entries", entries, "--class", "j70",
                             "--output", learnt, "--json"], capture_output=True, text=True, timeout=300)
    report = json.loads(result.stdout) if result.returncode == 0 and result.stdout.startswith("{") else {}
    boats = {b["boat"]: b for b in report.get("boats", [])}
    cells = [c for c in report.get("polar", []) if c["count"] >= 3 and c["twa"] >= 40]
    errors = [(c["twa"], c["tws"], 100 * (c["speed"] / interpolate(own, c["mean_twa"], c["mean_tws"]) - 1))
              for c in cells]
    worst = max(errors, key=lambda e: abs(e[2]), default=(0, 0, 100))
    check(set(boats) == {"kestrel", "tern", "gannet"} and all(b["minutes"] > 50 for b in boats.values())
          and len(cells) >= 15 and abs(worst[2]) <= 3,
          f"the class polar ashore (`telltale fleet polar`, a SQLite store): the J70's three boats give "
          f"{', '.join(str(b['minutes']) for b in boats.values())} steady minutes from 10 s samples, the faster boat of "
          f"another class none; {len(cells)} cells from 40°, each within 3 % of the simulator's polar (the worst "
          f"{worst[2]:+.1f} % at {worst[0]:.0f}°, {worst[1]:.0f} kn)", [e for e in errors if abs(e[2]) > 2])
    config = os.path.join(work, "class.toml")
    with open(config, "w") as f:
        f.write(f'polar = "{learnt}"\n')
    read = subprocess.run([binary, "check-config", config], capture_output=True, text=True, timeout=60)
    none = subprocess.run([binary, "fleet", "polar", "--store", store, "--entries", entries, "--class", "Laser"],
                          capture_output=True, text=True, timeout=60)
    check(read.returncode == 0 and "polar of" in read.stdout and none.returncode == 65,
          f"the class polar is one `polar` reads ({read.stdout.strip()}); a class with no boat in the fleet file is "
          f"refused (exit {none.returncode}: {none.stderr.strip()[:80]})")
