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
