"""The tide check's command line, a sailor's own harmonics file, and broken files."""
import os
import random
import subprocess

from libtcd import TCD
from tide_reference import Reference
import make_tcd


def run(check, tide, binary, harmonics, work):
    names(check, tide)
    near(check, tide)
    own_file(check, tide, binary, harmonics, work)
    broken(check, binary, harmonics, work)
    router_current(check, binary, harmonics, work)


def names(check, tide):
    status, answer, err = tide("Turn Point")
    check(status == 65 and answer is None and "7 stations are named Turn Point" in err
          and "Turn Point, Wrangell Narrows, Alaska Current" in err,
          "an ambiguous name is refused (exit 65), the candidates listed", err[:300])
    status, answer, err = tide("Atlantis Harbour")
    check(status == 65 and "no station named Atlantis Harbour" in err, "an unknown name is refused (exit 65)", err)
    status, answer, err = tide("Honolulu, Honolulu Harbor, Oahu Island, Hawaii", "--hours", "1")
    status2, answer2, _ = tide("honolulu harbor", "--hours", "1")
    check(status == 0 and status2 == 0 and answer["station"] == answer2["station"] and answer["reference"] is None,
          "a station by its whole name, or by a part only it has (any case)")


def near(check, tide):
    from geographiclib.geodesic import Geodesic
    status, answer, err = tide("--near", "42.35,-71.05", "--count", "6")
    stations = answer["stations"] if answer else []
    distances = [s["distance"] for s in stations]
    worst = max((abs(Geodesic.WGS84.Inverse(42.35, -71.05, s["latitude"], s["longitude"])["s12"] / 1852 - s["distance"])
                 for s in stations), default=99)
    check(status == 0 and len(stations) == 6 and distances == sorted(distances) and worst < 0.006
          and any(s["station"].startswith("Boston, Boston Harbor") for s in stations),
          f"--near Boston: the 6 nearest stations, nearest first, distances within {worst * 1852:.1f} m of "
          "GeographicLib's", err)


def own_file(check, tide, binary, harmonics, work):
    path = os.path.join(work, "own.tcd")
    make_tcd.make(path, harmonics)
    ref = Reference(TCD(path))
    for number, name in ((0, "Telltale Test Harbour"), (2, "Telltale Test Creek")):
        status, answer, err = tide(name, "--file", path, "--from", "2026-03-10T00:00Z", "--hours", "48")
        if not check(status == 0 and answer and answer["file"] == "own.tcd",
                     f"a sailor's own file (8 constituents, 13 years: tables ending mid-byte): {name} found", err):
            continue
        station = ref.station(number)
        station.prepare(answer and 1773100800 - 86400 * 2 or 0, 1773100800 + 86400 * 4)
        worst = max(abs(station.level(_unix(h["time"])) - h["height"]) for h in answer["heights"])
        theirs = station.events(1773100800, 1773100800 + 48 * 3600)
        mine = answer["events"]
        timing = max((min(abs(t - _unix(e["time"])) for t, k, _ in theirs if k == e["type"]) for e in mine),
                     default=9999) / 60
        check(worst < 0.02 and len(mine) == len(theirs) and timing < 4,
              f"{name} ({'offsets from the harbour' if number else 'its own constants'}) as libtcd reads the file: "
              f"heights within {worst * 100:.2f} cm, {len(mine)} events within {timing:.2f} min",
              f"{len(mine)} against {len(theirs)}")
    state = os.path.join(work, "state")
    os.makedirs(os.path.join(state, "tides"), exist_ok=True)
    os.replace(path, os.path.join(state, "tides", "own.tcd"))
    config = os.path.join(work, "telltale.toml")
    with open(config, "w") as f:
        f.write(f'state_file = "{state}/state.toml"\n')
    status, answer, err = tide("Telltale Test Harbour", "--config", config, "--hours", "1")
    check(status == 0 and answer and answer["file"] == "own.tcd",
          "and from the tides folder beside the state file of --config", err)


def broken(check, binary, harmonics, work):
    data = open(harmonics, "rb").read()
    draw = random.Random(7)
    cases = {"cut short": data[:len(data) // 3], "garbage": bytes(draw.randrange(256) for _ in range(100000)),
             "a header that lies": data.replace(b"[NUMBER OF RECORDS] = 5407", b"[NUMBER OF RECORDS] = 9999", 1),
             "not a harmonics file": b"hello\n" * 100}
    flipped = bytearray(data)
    for _ in range(2000):
        flipped[draw.randrange(350000, len(flipped))] ^= 1 << draw.randrange(8)
    cases["2,000 bits flipped in the records"] = bytes(flipped)
    outcomes = []
    for label, content in cases.items():
        path = os.path.join(work, label.replace(" ", "-").replace(",", "") + ".tcd")
        open(path, "wb").write(content)
        runs = [subprocess.run([binary, "tide", *args, "--file", path], capture_output=True, text=True, timeout=120)
                for args in (["Boston, Boston Harbor"], ["--near", "42.35,-71.05"], ["PUG1717_35", "--hours", "48"])]
        crashed = [r for r in runs if r.returncode < 0 or r.returncode >= 128]
        outcomes.append((label, crashed, [r.returncode for r in runs], runs[0].stderr.strip()[:160]))
    check(all(not crashed for _, crashed, _, _ in outcomes),
          "broken harmonics files (cut short, garbage, a header that lies, not one at all, 2,000 bits flipped) never "
          "crash the command: refused with the reason, or the good files used",
          "; ".join(f"{label}: {codes} {err}" for label, _, codes, err in outcomes))


def _unix(text):
    import calendar
    y, m, d = (int(x) for x in text[:10].split("-"))
    hh, mm, ss = (int(x) for x in text[11:19].split(":"))
    return calendar.timegm((y, m, d, hh, mm, ss))


def router_current(check, binary, harmonics, work):
    """The router's current at a place and time (`telltale tide --current`): a current station's own stream beside
    it, the inverse-square mean of two between them, an ocean model's GRIB (ecCodes-written, RTOFS-like) far from
    any station, nothing where neither says."""
    import calendar
    import json as j
    import math
    sys_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Interop")
    state = os.path.join(work, "router")
    os.makedirs(os.path.join(state, "weather"), exist_ok=True)
    grib = os.path.join(work, "rtofs.grib2")
    made = subprocess.run(["/usr/bin/python3", "-c", f"import sys; sys.path.insert(0, {sys_path!r}); "
                           f"import weather_grib as w; w.grib2_rtofs({grib!r}, 20260719, 0, range(0, 25, 3))"],
                          capture_output=True, text=True)
    config = os.path.join(work, "router.toml")
    with open(config, "w") as f:
        f.write(f'state_file = "{state}/state.toml"\n[tides]\ncurrent_radius_nm = 5\n')
    imported = subprocess.run([binary, "weather", "import", grib, "--config", config], capture_output=True, text=True)
    check(made.returncode == 0 and imported.returncode == 0, "an ocean model's GRIB2 (ucurr, vcurr at the ocean's "
          "surface) imported into the weather folder", made.stderr + imported.stdout + imported.stderr)

    def ask(lat, lon, when="2026-07-19T04:30Z"):
        result = subprocess.run([binary, "tide", "--current", f"{lat},{lon}", "--config", config, "--from", when,
                                 "--hours", "0", "--json"], capture_output=True, text=True, timeout=120)
        try:
            return j.loads(result.stdout)["currents"][0]
        except (ValueError, KeyError, IndexError):
            return {"error": result.stdout + result.stderr}

    # Far out in the Atlantic, on the ocean grid: the field's own formula (linear, so the interpolation is exact).
    lat, lon, hours = 30.3, -39.6, 4.5
    u = 0.6 + 0.05 * (lat - 29.0) - 0.02 * (lon + 41.0) + 0.01 * hours
    v = -0.3 + 0.01 * (lat - 29.0) + 0.04 * (lon + 41.0) - 0.005 * hours
    ocean = ask(lat, lon)
    check(ocean.get("source") == "ocean" and abs(ocean.get("east", 9) - u) < 0.003 and abs(ocean.get("north", 9) - v) < 0.003,
          f"mid-Atlantic, no station near: the ocean forecast's current ({ocean.get('east')}, {ocean.get('north')} "
          f"m/s; the field's own {u:.3f}, {v:.3f})", j.dumps(ocean))
    nothing = ask(10.0, -60.0)
    check("source" in nothing and nothing["source"] is None, "where neither a station nor a forecast says: no current",
          j.dumps(nothing))
    # Beside Turn Point's bin 35 station: its own stream, as the independent predictor has it.
    db = TCD(harmonics)
    ref = Reference(db)
    rec = db.record(db.find("PUG1717_35")[0] if db.find("PUG1717_35") else 1756)
    at = calendar.timegm((2026, 7, 19, 4, 30, 0))
    speed = ref.station(rec["number"]).level(at)
    direction = math.radians(rec["max_direction"] if speed >= 0 else rec["min_direction"])
    beside = ask(rec["lat"] + 0.0005, rec["lon"])
    expected = (abs(speed) * 1852 / 3600 * math.sin(direction), abs(speed) * 1852 / 3600 * math.cos(direction))
    check(beside.get("source") == "tidal" and beside.get("stations") == 1
          and abs(beside.get("east", 9) - expected[0]) < 0.01 and abs(beside.get("north", 9) - expected[1]) < 0.01,
          f"55 m from Turn Point's station: its own stream ({beside.get('drift')} kn setting {beside.get('set')}°; the "
          f"independent predictor {abs(speed):.2f} kn)", j.dumps(beside))
