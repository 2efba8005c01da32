"""The tide check (#51), `telltale tide` against independent sources:

 1. NOAA's published predictions for 2026 (../shared/fixtures/tides; skipped, saying so, when absent): Honolulu and
    Boston's high and low waters and hourly heights, the current at Turn Point (PUG1717, bin 35); the issue's goals.
 2. An independent predictor over the same constants (tide_reference.py: Debian's libtcd reading the file, XTide's
    congen tables for the year's node factors and arguments, events by sampling): reference and subordinate tide
    stations, currents and hydraulic currents, in 1995, 2026 and 2071, across the whole file.
 3. The command line: an ambiguous or unknown name refused with the candidates and a non-zero exit; --near's
    distances against GeographicLib.
 4. A harmonics file of a sailor's own, written by libtcd with tables that end mid-byte, read with --file and from the
    tides folder of --config.
 5. Broken files (cut short, garbage, bytes flipped) refused or survived: never a crash.

    tide_check.py TELLTALE HARMONICS.tcd
"""
import calendar
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
sys.path.insert(0, HERE)
from support import Checks  # noqa: E402
import tide_check_files  # noqa: E402
import tide_check_reference  # noqa: E402

binary, harmonics = sys.argv[1], sys.argv[2]
check = Checks("tide-check")
work = tempfile.mkdtemp(prefix="telltale-tides-")
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "fixtures", "tides")


def tide(*args):
    """`telltale tide ARGS --json`: (exit status, the JSON or None, standard error)."""
    result = subprocess.run([binary, "tide", *args, "--json"], capture_output=True, text=True, timeout=300)
    try:
        answer = json.loads(result.stdout) if result.returncode == 0 else None
    except ValueError:
        answer = None
    return result.returncode, answer, result.stderr


def unix(text):
    """NOAA's times: "2026-08-15 03:22", "2026-07-19T01:44Z", or Telltale's "2026-08-15T03:22:14.000Z"."""
    digits = [int(part) for part in text.replace("T", " ").replace("Z", "").replace("-", " ").replace(":", " ")
              .replace(".", " ").split()][:6]
    return calendar.timegm(tuple(digits + [0] * (6 - len(digits))))


def nearest(events, when, kind):
    same = [e for e in events if e[1] == kind]
    return min(same, key=lambda e: abs(e[0] - when)) if same else None


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))] if ordered else float("nan")


def against_noaa():
    if not os.path.isdir(SHARED):
        print("tide-check: ../shared/fixtures/tides is absent: NOAA's predictions are not compared (skipped)")
        return
    station_errors = []
    for station_id, label in (("1612340", "Honolulu"), ("8443970", "Boston")):
        hilo = json.load(open(f"{SHARED}/noaa-{station_id}-hilo-2026-08-15_2026-08-21.json"))["predictions"]
        hourly = json.load(open(f"{SHARED}/noaa-{station_id}-hourly-2026-08-15_2026-08-21.json"))["predictions"]
        status, answer, err = tide(station_id, "--from", "2026-08-14T21:00Z", "--hours", str(24 * 7 + 6))
        if not check(status == 0 and answer, f"{label} predicted by NOAA's station number {station_id}", err):
            continue
        events = [(unix(e["time"]), e["type"], e["height"]) for e in answer["events"]]
        heights = {unix(h["time"]): h["height"] for h in answer["heights"]}
        minutes = [abs(nearest(events, unix(p["t"]), "high" if p["type"] == "H" else "low")[0] - unix(p["t"])) / 60
                   for p in hilo]
        errors = [abs(heights[unix(p["t"])] - float(p["v"])) * 100 for p in hourly if unix(p["t"]) in heights]
        inside = [e for e in events if unix(hilo[0]["t"]) - 900 <= e[0] <= unix(hilo[-1]["t"]) + 900]
        check(answer["units"] == "m" and answer["datum"] == "Mean Lower Low Water" and len(inside) == len(hilo),
              f"{label}: metres above MLLW, the {len(hilo)} high and low waters NOAA lists and no other",
              f"{len(inside)} events")
        check(statistics.median(minutes) < 3 and percentile(minutes, 0.95) < 30,
              f"{label}: high and low water times median {statistics.median(minutes):.1f} min, 95th percentile "
              f"{percentile(minutes, 0.95):.1f} min (goals 3 and 30)")
        check(len(errors) == 168 and statistics.mean(errors) < 6,
              f"{label}: hourly heights mean absolute error {statistics.mean(errors):.2f} cm (the largest hour "
              f"{max(errors):.2f} cm; goal 6 at the worst station)")
        station_errors.append(statistics.mean(errors))
    check(len(station_errors) == 2 and statistics.median(station_errors) < 2.5,
          f"heights at the median station: mean absolute error {statistics.median(station_errors):.2f} cm (goal 2.5)")
    golden = json.load(open(f"{SHARED}/signalk-currents-noaa-pug1717-golden.json"))["events"]
    status, answer, err = tide("PUG1717_35", "--from", "2026-07-18T21:00Z", "--hours", "78")
    if check(status == 0 and answer and answer["units"] == "kn" and answer["floodDirection"] == 3,
             "Turn Point, Boundary Pass (PUG1717_35): knots, flood setting 3°, ebb 236°", err):
        events = [(unix(e["time"]), e["type"], e["speed"]) for e in answer["events"]]
        found = [(nearest(events, unix(g["utc"]), g["kind"]), g) for g in golden]
        minutes = [abs(e[0] - unix(g["utc"])) / 60 for e, g in found]
        speeds = [abs(e[2] - g["velocityMajorKn"]) for e, g in found]
        check(statistics.median(minutes) < 5 and percentile(minutes, 0.95) < 15 and max(speeds) < 0.10,
              f"Turn Point's slacks, floods and ebbs: timing median {statistics.median(minutes):.2f} min, 95th "
              f"percentile {percentile(minutes, 0.95):.2f} min, speed error at most {max(speeds):.3f} kn (goals 5, 15, "
              "0.10)")
        currents = answer["currents"]
        check(all((c["direction"] == 3) == (c["speed"] >= 0) for c in currents),
              "each current point says the direction it sets: the flood's when positive, the ebb's when negative")

check.stage("NOAA's published predictions")
against_noaa()
check.stage("an independent predictor over libtcd")
tide_check_reference.run(check, tide, harmonics)
check.stage("the command line, a sailor's own file, broken files")
tide_check_files.run(check, tide, binary, harmonics, work)
shutil.rmtree(work, ignore_errors=True)
check.finish()
