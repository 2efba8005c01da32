"""The calibration check's simulator part (calibration_check.py): known errors injected into a simulated voyage.

`telltale simulate` sails a zig-zag of 12 beats (true wind angle 70°, the tacks between them) and 12 runs (gybes
between them) in 12 knots, twice with the same seed: with true instruments, and with the masthead unit turned by +5°
and the log reading 0.93 of the speed (`--awa-error 5 --log-error 0.93`). The learner finds the log's factor of the
true voyage within 1 % of 1 (the leeway allowed for as the engine does, from the heel), and on the other voyage the
offset moved by −5 ± 1° and the factor by 1/0.93 ± 1.5 %.
"""
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Interop"))
from piloted_boat import destination  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calibration_polar import write_route  # noqa: E402


def zigzag(path):
    point, points = (50.60, -1.20), [(50.60, -1.20)]
    for i in range(12):  # the wind from 225°: beats at 155° and 295°
        point = destination(*point, 155 if i % 2 == 0 else 295, 700)
        points.append(point)
    for i in range(12):  # runs at 15° and 75°
        point = destination(*point, 15 if i % 2 == 0 else 75, 800)
        points.append(point)
    write_route(path, points, "Zigzag", "P")


def simulated_errors(binary, check, work):
    route = os.path.join(work, "zigzag.gpx")
    zigzag(route)
    reports = {}
    for name, errors in (("true", []), ("errors", ["--awa-error", "5", "--log-error", "0.93"])):
        out = os.path.join(work, "zz-" + name)
        subprocess.run([binary, "simulate", "--route", route, "--output", out, "--duration", "14400",
                        "--wind-speed", "12", *errors], check=True, capture_output=True, timeout=600)
        result = subprocess.run([binary, "calibrate", "sailing", os.path.join(out, "voyage.nmea"), "--json"],
                                capture_output=True, text=True, timeout=300)
        reports[name] = json.loads(result.stdout) if result.returncode == 0 else {}
    true, errors = reports["true"], reports["errors"]
    factor = true.get("speed_factor", {})
    check(abs(factor.get("value", 0) - 1) <= 0.01 and true.get("tacks", {}).get("count", 0) >= 8,
          f"a simulated voyage with true instruments: the log's factor {factor.get('value', 0):.4f} "
          f"± {factor.get('uncertainty') or 0:.4f} ({true.get('tacks', {}).get('count')} tacks, the leeway allowed for)")
    # The simulator's compass has no deviation, and its leeway is K = 12 × heel / STW² (capped at 10°, its steady heel).
    leeway, deviation = true.get("leeway", {}), true.get("deviation", {})
    card = [row[1] for row in deviation.get("table", [])]
    check(leeway.get("form") == "heel" and abs(leeway.get("value", 0) - 12) <= 12 * 0.15 and card
          and max(abs(v) for v in card) <= 1,
          f"the same voyage: the leeway's K {leeway.get('value', 0):.1f} ± {leeway.get('uncertainty') or 0:.1f} "
          f"(the simulator's 12, within 15 %), no compass card (at most {max((abs(v) for v in card), default=0):.2f}°)")
    moved = errors.get("awa_offset", {}).get("value", 0) - true.get("awa_offset", {}).get("value", 0)
    ratio = true.get("speed_factor", {}).get("value", 1) / max(errors.get("speed_factor", {}).get("value", 1), 1e-9)
    check(abs(moved + 5) <= 1 and abs(ratio - 0.93) <= 0.93 * 0.015,
          f"the same voyage with the masthead unit turned +5° and the log reading 0.93: the offset moves by "
          f"{moved:+.2f}°, the factor by 1/{1 / ratio:.4f} (1/0.93 = 1.0753)")


HEADINGS = (155, 295, 135, 315, 15, 75, 160, 290, 35, 100)  # the wind from 225°: beats, reaches and runs


def race_course(path, legs=80, length=900):
    """Legs of `length` metres on ten headings in turn (every octant of the compass but the wind's own): tacks, gybes, and a
    bear-away or a round-up wherever a beat meets a run."""
    point, points = (50.60, -1.20), [(50.60, -1.20)]
    for i in range(legs):
        point = destination(*point, HEADINGS[i % len(HEADINGS)], length)
        points.append(point)
    write_route(path, points, "Course", "P")


def sail_and_learn(binary, route, work, name, args):
    """`telltale simulate` along `route` with `args` into work/NAME, then `telltale calibrate sailing` of its log into
    work/NAME.toml: the log's path, the file's and the `--json` report ({} when the learner refused)."""
    out = os.path.join(work, name)
    subprocess.run([binary, "simulate", "--route", route, "--output", out, *args],
                   check=True, capture_output=True, timeout=600)
    log, toml = os.path.join(out, "voyage.nmea"), os.path.join(work, name + ".toml")
    result = subprocess.run([binary, "calibrate", "sailing", log, "--json", "--output", toml],
                            capture_output=True, text=True, timeout=300)
    return log, toml, json.loads(result.stdout) if result.returncode == 0 else {}


def replay_directions(binary, log, calibration):
    """The calibrated replay's true wind directions (MWD) by the replay clock's millisecond."""
    result = subprocess.run([binary, "replay", "--fast", "--computed-only", "--tag-time", "--calibration", calibration,
                             log], capture_output=True, text=True, timeout=600)
    out = {}
    for line in result.stdout.splitlines():
        if "MWD," not in line or not line.startswith("\\c:"):
            continue
        fields = line.split("MWD,")[1].split(",")
        if fields[0]:
            out[int(line[3:line.index("*")])] = float(fields[0])
    return out


def card(report):
    return {row[0]: row[1] for row in report.get("deviation", {}).get("table", [])}


def simulated_course(binary, check, work):
    """Every error at once on a course sailed on ten headings, in a steady 12 kn (no gusts: the wind speed's factor
    rests on the wind speed either side of a mark): the masthead unit turned +5°, its wind speed reading 1.12, the log
    0.93, and a compass card of 4° sin h + 2° cos 2h (the compass reads the magnetic heading less it)."""
    route = os.path.join(work, "course.gpx")
    race_course(route)
    reports, files, logs = {}, {}, {}
    for name, errors in (("true", []), ("errors", ["--awa-error", "5", "--log-error", "0.93", "--aws-error", "1.12",
                                                   "--deviation", "0,4,0,0,2"])):
        logs[name], files[name], reports[name] = sail_and_learn(
            binary, route, work, "course-" + name, ["--duration", "40000", "--gust", "0", "--wind-speed", "12", *errors])
    true, errors = reports["true"], reports["errors"]
    value = lambda report, key, identity: report.get(key, {}).get("value", identity)  # noqa: E731
    moved = value(errors, "awa_offset", 0) - value(true, "awa_offset", 0)
    log = value(true, "speed_factor", 1) / max(value(errors, "speed_factor", 1), 1e-9)
    wind = value(true, "aws_factor", 1) / max(value(errors, "aws_factor", 1), 1e-9)
    sure = all(errors.get(k, {}).get("applied") for k in ("awa_offset", "speed_factor", "aws_factor"))
    check(sure and abs(moved + 5) <= 1 and abs(log - 0.93) <= 0.93 * 0.015 and abs(wind - 1.12) <= 1.12 * 0.03,
          f"a course with every error at once: the offset moves by {moved:+.2f}° (-5 ± 1), the log's factor by "
          f"1/{1 / log:.4f} (1/0.93 ± 1.5 %), the wind speed's by 1/{wind:.4f} ({errors.get('roundings', {}).get('count')} "
          f"bear-aways and round-ups; 1/1.12 ± 3 %), each sure")
    check(abs(value(true, "aws_factor", 1) - 1) <= 0.05,
          f"with true instruments the wind speed's factor is {value(true, 'aws_factor', 1):.3f} (1 ± 5 %: the true wind "
          f"speed the same either side of a mark)")
    base, learnt = card(true), card(errors)
    sailed = [h for h in learnt if h != 225]  # never sailed: the wind's own octant
    worst = max((abs(learnt[h] - base.get(h, 0) - (4 * math.sin(math.radians(h)) + 2 * math.cos(math.radians(2 * h))))
                 for h in sailed), default=99)
    check(errors.get("deviation", {}).get("applied") and worst <= 1.5,
          f"the compass card comes back within {worst:.2f}° of the one injected at every octant sailed (1.5° at most)")
    seen = errors.get("card_check", {}).get("tacks", {})
    check(seen.get("says") == "the wind sees it",
          f"the wind sees that card across the tacks: the jumps' slope on the card's change of them "
          f"{seen.get('slope', 0):.2f} ± {seen.get('error', 0):.2f} over {seen.get('count')} tacks (within two errors "
          f"of -1, not of 0)")
    a = replay_directions(binary, logs["true"], files["true"])
    b = replay_directions(binary, logs["errors"], files["errors"])
    diffs = sorted(abs((b[t] - a[t] + 180) % 360 - 180) for t in a if t in b)
    median = diffs[len(diffs) // 2] if diffs else 99
    check(len(diffs) > 10000 and median <= 0.5,
          f"the calibrated replay of the course with every error gives the calibrated true course's wind direction: "
          f"median {median:.2f}°, 90 % within {diffs[int(len(diffs) * 0.9)] if diffs else 99:.2f}° ({len(diffs)} "
          f"seconds; 0.5° at most)")


def windward_leeward(path, rounds=10, miles=1.0):
    """A windward-leeward race: the windward mark a mile dead upwind of the leeward one (the wind from 225°), ten
    times round. The simulator's helm beats to it by the wind, tacking on the laylines, and runs back at the polar's
    gybing angle (`--racing`), gybing on the laylines."""
    bottom = (50.60, -1.20)
    top = destination(*bottom, 225, 1852 * miles)
    points = [bottom] + [top, bottom] * rounds
    write_route(path, points, "Race", "M")


def truth_directions(path):
    """The simulator's true wind direction over the water and its true wind angle, by the truth's millisecond."""
    import csv
    with open(path) as f:
        return {round(float(r["time_s"]) * 1000): (float(r["twd"]), float(r["twa"])) for r in csv.DictReader(f)}


def simulated_truth(binary, check, work):
    """Every error at once on a windward-leeward race sailed by the wind (steady 12 kn): the learnt values against
    what was injected, and the calibrated replay's true wind direction against the simulator's own truth."""
    route = os.path.join(work, "race.gpx")
    windward_leeward(route)
    out = os.path.join(work, "race")
    subprocess.run([binary, "simulate", "--route", route, "--output", out, "--duration", "60000", "--gust", "0",
                    "--racing", "--wind-speed", "12", "--awa-error", "5", "--log-error", "0.93", "--aws-error", "1.12",
                    "--deviation", "0,4,0,0,2"], check=True, capture_output=True, timeout=600)
    log, learnt = os.path.join(out, "voyage.nmea"), os.path.join(work, "race.toml")
    result = subprocess.run([binary, "calibrate", "sailing", log, "--json", "--output", learnt],
                            capture_output=True, text=True, timeout=300)
    report = json.loads(result.stdout) if result.returncode == 0 else {}
    value = lambda key, identity: report.get(key, {}).get("value", identity)  # noqa: E731
    check(abs(value("awa_offset", 0) + 5) <= 1 and abs(value("speed_factor", 1) - 1 / 0.93) <= 0.015 / 0.93
          and abs(value("aws_factor", 1) - 1 / 1.12) <= 0.03 / 1.12,
          f"a windward-leeward race sailed by the wind with every error at once: offset {value('awa_offset', 0):+.2f}° "
          f"(-5 ± 1), log {value('speed_factor', 1):.4f} (1/0.93 = 1.0753 ± 1.5 %), wind speed "
          f"{value('aws_factor', 1):.4f} (1/1.12 = 0.8929 ± 3 %), from {report.get('tacks', {}).get('count')} tacks")
    truth = truth_directions(os.path.join(out, "truth.csv"))
    errors = {"all": [], "starboard beat": [], "port beat": [], "run": []}
    raw = []
    for calibration, into in ((learnt, None), (None, raw)):
        command = [binary, "replay", "--fast", "--computed-only", "--tag-time", log]
        if calibration:
            command[2:2] = ["--calibration", calibration]
        lines = subprocess.run(command, capture_output=True, text=True, timeout=600).stdout.splitlines()
        for line in lines:
            if "MWD," not in line or not line.startswith("\\c:"):
                continue
            direction = line.split("MWD,")[1].split(",")[0]
            t = int(line[3:line.index("*")])
            if not direction or t not in truth:
                continue
            twd, twa = truth[t]
            e = (float(direction) - twd + 180) % 360 - 180
            if into is not None:
                into.append(abs(e))
                continue
            errors["all"].append(e)
            side = "run" if abs(twa) > 100 else "starboard beat" if 0 < twa < 80 else "port beat" if -80 < twa < 0 \
                else None
            if side:
                errors[side].append(e)
    median = {k: sorted(v)[len(v) // 2] if v else 99 for k, v in errors.items()}
    check(len(errors["all"]) > 10000 and abs(median["all"]) <= 0.5
          and all(abs(median[k]) <= 1 for k in ("starboard beat", "port beat", "run")),
          f"the calibrated true wind direction against the simulator's truth: median {median['all']:+.2f}° over "
          f"{len(errors['all'])} seconds (0.5° at most); starboard beats {median['starboard beat']:+.2f}°, port "
          f"{median['port beat']:+.2f}°, runs {median['run']:+.2f}° (1° at most each); uncalibrated "
          f"{sorted(raw)[len(raw) // 2] if raw else 99:.2f}° off at the median")
