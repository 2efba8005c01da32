#!/usr/bin/env python3
"""Calibration judged on every day of a boat's logs, each day by a calibration learnt on all the others (#50).

Usage: calibration_crossval.py [--before] TELLTALE LOG...

With `--before`, each day is judged by the calibration learnt on the days before it only (the boat as she would have
sailed that day, her history learnt: a change of her instruments is not seen until the day after), from the second
day on; the calibration is not taken apart.

The logs are grouped by the date of their first valid RMC (two logs of one day are one day). For each day,
`telltale calibrate sailing` learns on every other day's logs and `--judge` says that day's tacks and gybes with and
without the calibration; the day's own logs are never learnt from. Every judged manoeuvre is then pooled: the tack
(and gybe) bias is the median signed jump of the true wind direction across them (signed by the side the boat came
from), with the median's standard error (the larger of the tacks' own and the days' spread), and the median size
of the jumps: for the boat's own instruments (her MWV T) over the manoeuvres whose windows carry it, for Telltale
uncalibrated, and calibrated. A day with no tack says 0 tacks.
"""

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile


def first_date(path):
    """The date (YYYY-MM-DD) of the log's first valid RMC, or the file's name when it has none."""
    with open(path, "rb") as f:
        for raw in f:
            fields = raw.decode("ascii", "replace").strip().split(",")
            if len(fields) > 9 and fields[0][3:6] == "RMC" and fields[2] == "A" and len(fields[9]) == 6:
                d = fields[9]
                return f"20{d[4:6]}-{d[2:4]}-{d[0:2]}"
    return os.path.basename(path)


def by_day(logs):
    """The logs grouped by their first date (two logs of one day are one day)."""
    days = {}
    for log in logs:
        days.setdefault(first_date(log), []).append(log)
    return days


def signed(m, suffix):
    before, after = m.get("twd_before" + suffix), m.get("twd_after" + suffix)
    if before is None or after is None:
        return None
    side = 1 if m["from"] == "starboard" else -1
    return side * ((after - before + 180) % 360 - 180)


def figures(pairs):
    """Of (day, value) pairs: the median, its standard error and the median size, or None with fewer than 3. The error
    is the larger of the values' own (1.2533 × 1.4826 × MAD / √n) and the days' (each day's median about the whole's,
    √(Σ n² (m − M)² · g / (g − 1)) / N × 1.2533), as `telltale calibrate sailing --judge` says it."""
    values = [v for _, v in pairs]
    if len(values) < 3:
        return None
    med = statistics.median(values)
    mad = statistics.median(abs(v - med) for v in values)
    error = 1.2533 * 1.4826 * mad / math.sqrt(len(values))
    by_day = {}
    for day, value in pairs:
        by_day.setdefault(day, []).append(value)
    if len(by_day) >= 3:
        g = len(by_day)
        total = sum(len(v) ** 2 * (statistics.median(v) - med) ** 2 for v in by_day.values())
        error = max(error, 1.2533 * math.sqrt(total * g / (g - 1)) / len(values))
    return med, error, statistics.median(abs(v) for v in values)


def say(label, values):
    f = figures(values)
    if f is None:
        return f"{label} —"
    return f"{label} {f[0]:+.1f}° ± {f[1]:.1f} (jump {f[2]:.1f}°)"


# The calibration taken apart: each learnt file judged again with one part left out (its lines removed), to say what
# each part does on the days held out.
PARTS = {
    "without the compass card": lambda line: line.startswith("deviation"),
    "without the upwash by wind speed": lambda line: line.startswith(("upwash_tws", "upwash_upwind_by", "upwash_downwind_by")),
    "without the log's factor": lambda line: line.startswith("speed_factor"),
    "the offset alone": lambda line: not line.startswith(("[", "#", "awa_offset")),
    "the offset and the card": lambda line: not line.startswith(("[", "#", "awa_offset", "deviation")),
    "the offset and the log": lambda line: not line.startswith(("[", "#", "awa_offset", "speed_", "log_step")),
}


def learn(telltale, logs, toml):
    """`telltale calibrate sailing` on `logs`: the calibration written to `toml`, the report (JSON) returned."""
    return json.loads(subprocess.run([telltale, "calibrate", "sailing", *logs, "--output", toml, "--json"],
                                     check=True, capture_output=True).stdout)


def judge(telltale, logs, toml):
    return json.loads(subprocess.run([telltale, "calibrate", "sailing", *logs, "--judge", toml, "--json"],
                                     check=True, capture_output=True).stdout)["manoeuvres"]


def taken_apart(telltale, days, work):
    """For each part, the pooled tacks and gybes judged with the part left out (signed jumps by day)."""
    out = {name: {"tack": [], "gybe": []} for name in PARTS}
    for day in sorted(days):
        with open(os.path.join(work, day + ".toml")) as f:
            lines = f.read().splitlines()
        for name, drop in PARTS.items():
            toml = os.path.join(work, f"{day}-part.toml")
            with open(toml, "w") as f:
                f.write("\n".join(line for line in lines if not drop(line)) + "\n")
            for m in judge(telltale, days[day], toml):
                value = signed(m, "_calibrated")
                if m["kind"] in ("tack", "gybe") and value is not None:
                    out[name][m["kind"]].append((day, value))
    return out


def as_auto(telltale, logs, day, applied, auto):
    """The day's tacks and gybes as `auto` would have sailed it: with the file `applied` (an empty one: nothing)."""
    for m in judge(telltale, logs, applied):
        value = signed(m, "_calibrated")
        if m["kind"] in auto and value is not None:
            auto[m["kind"]].append((day, value))


def main():
    before = sys.argv[1] == "--before"
    telltale, days = sys.argv[1 + before], by_day(sys.argv[2 + before:])
    pool = {"tack": {"": [], "_calibrated": [], "_instruments": []}, "gybe": {"": [], "_calibrated": [], "_instruments": []}}
    auto = {"tack": [], "gybe": []}
    work = tempfile.mkdtemp()
    held_days, nothing = [], os.path.join(work, "nothing.toml")
    with open(nothing, "w") as f:
        f.write("[sailing]\n")
    for day in sorted(days):
        others = [log for d in days if (d < day if before else d != day) for log in days[d]]
        if not others:
            print(f"{day}: no day before it to learn from", flush=True)
            continue
        toml = os.path.join(work, day + ".toml")
        learnt = learn(telltale, others, toml)
        # `auto` applies nothing the check on the newest days learnt from says is worse: on a boat with nothing
        # applied yet, that day sails uncalibrated.
        held = (learnt.get("newest_days") or {}).get("says") == "worse"
        if held:
            held_days.append(day)
        if before:
            as_auto(telltale, days[day], day, nothing if held else toml, auto)
        kept = {"tack": {"": [], "_calibrated": [], "_instruments": []}}
        for m in judge(telltale, days[day], toml):
            if m["kind"] not in pool:
                continue
            for suffix in ("", "_calibrated", "_instruments"):
                value = signed(m, suffix)
                if value is not None:
                    pool[m["kind"]][suffix].append((day, value))
                    if m["kind"] == "tack":
                        kept["tack"][suffix].append(value)
        tacks = kept["tack"]
        line = f"{day}: {len(tacks[''])} tacks"
        if tacks[""]:
            line += " · bias raw {} · uncalibrated {:+.1f}° · calibrated {:+.1f}°".format(
                f"{statistics.median(tacks['_instruments']):+.1f}°" if tacks["_instruments"] else "—",
                statistics.median(tacks[""]), statistics.median(tacks["_calibrated"]))
        print(line, flush=True)
    for kind in ("tack", "gybe"):
        p = pool[kind]
        print(f"{kind}s judged on the day {'after the days learnt' if before else 'held out'} ({len(p[''])}): " + " · ".join(
            [say("raw", p["_instruments"]), say("uncalibrated", p[""]), say("calibrated", p["_calibrated"])]))
        u, c = figures(p[""]), figures(p["_calibrated"])
        if u and c:
            print(f"{kind}s: calibrated bias / uncalibrated {abs(c[0]) / max(abs(u[0]), 1e-9):.2f}; "
                  f"median jump calibrated / uncalibrated {c[2] / u[2]:.2f}")
    if before:
        print(f"as `auto` would have applied it on a boat with nothing applied yet (not where the learning's check on "
              f"its newest days said worse: {len(held_days)} days, {', '.join(held_days) or 'none'}):")
        for kind in ("tack", "gybe"):
            u, a = figures(pool[kind][""]), figures(auto[kind])
            if u and a:
                print(f"  {kind}s {a[0]:+.1f}° ± {a[1]:.1f} (jump {a[2]:.1f}°, {a[2] / u[2]:.2f} × the uncalibrated)")
    # What no calibration can do: the jumps less their own pooled median (the one correction of every tack's direction
    # that a calibration's bias could at best take out) are hardly smaller; the jumps are the wind's.
    for kind in ("tack", "gybe"):
        values = [v for _, v in pool[kind][""]]
        if len(values) >= 3:
            middle = statistics.median(values)
            print(f"{kind}s: the uncalibrated jumps less their pooled median ({middle:+.1f}°): median jump "
                  f"{statistics.median(abs(v - middle) for v in values):.1f}° (uncalibrated "
                  f"{statistics.median(abs(v) for v in values):.1f}°)")
            # Each day's own median taken out (what a correction learnt on the judged day itself could at best do).
            per_day = {}
            for day, value in pool[kind][""]:
                per_day.setdefault(day, []).append(value)
            own = [v - statistics.median(vs) for vs in per_day.values() for v in vs]
            print(f"{kind}s: the uncalibrated jumps less their own day's median: median jump "
                  f"{statistics.median(abs(v) for v in own):.1f}°")
    if before:
        return
    u = {kind: figures(pool[kind][""]) for kind in ("tack", "gybe")}
    for name, judged in taken_apart(telltale, days, work).items():
        said = []
        for kind in ("tack", "gybe"):
            f = figures(judged[kind])
            if f and u[kind]:
                said.append(f"{kind}s {f[0]:+.1f}° (jump {f[2]:.1f}°, {f[2] / u[kind][2]:.2f} ×)")
        print(f"calibrated {name}: " + " · ".join(said))


if __name__ == "__main__":
    main()
