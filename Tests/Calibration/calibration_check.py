"""Calibration from sailing (#50) on the real logs of the yacht Irene (../shared/fixtures/calibration, anemomind's):

1. `telltale calibrate sailing` on six days of Lake Geneva 2014: the values it is sure of written for
   `[calibration] file`, each with its uncertainty and the manoeuvres behind it (--json).
2. Injected errors, written into the same logs by PyPI's pynmea2 (an independent NMEA library): every apparent wind
   angle turned by +5° (MWV R and VWR alike), boat speed (VHW) scaled by 1.08. The learnt offset moves by -5 ± 1°,
   the speed factor by 1/1.08 ± 1.5 %; a compass card (4° sin h + 2° cos 2h) added to every heading moves the learnt
   deviation curve by it within 1°; the calibrated replay of each altered log gives the true wind of the calibrated
   original (MWV T, within 1.5° at the median second).
3. The boat's real polar learnt from simulated voyages against the simulator's own (calibration_polar.py), and a
   one-design class's ashore from the store (class_polar.py); errors injected into a simulated voyage recovered
   (calibration_simulated.py).
4. Bad input: a wind angle stuck at one value is a sensor fault (exit 65, nothing learnt); a log with no
   manoeuvres says "not enough data" and applies nothing, and so does a motor yacht's recorded NMEA 2000 bus; an
   impossible calibration file is refused by the replay.
5. The log's steps: found between days and on the newest day's morning (calibration_log_steps.py,
   calibration_morning_after.py), and carried by the file, so that a 2013 log replayed with the 2014 file reads its
   log as it read then, as the ground says (calibration_dated_steps.py).
6. A log without RMC (GGA, VTG and ZDA, the compass in HDM) learns what the same log with RMC does
   (calibration_gps_sentences.py).

    calibration_check.py BINARY FIXTURES
"""
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

import pynmea2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import Checks  # noqa: E402
from calibration_polar import learnt_polar  # noqa: E402
from class_polar import class_polar  # noqa: E402
from calibration_simulated import simulated_course, simulated_errors, simulated_truth  # noqa: E402
from calibration_reaches import simulated_reaches  # noqa: E402
from calibration_log_side import simulated_log_side  # noqa: E402
from calibration_log_steps import log_steps  # noqa: E402
from calibration_morning_after import ELEVEN, morning_after  # noqa: E402
from calibration_dated_steps import dated_steps  # noqa: E402
from calibration_reach_by_wind import simulated_reach_by_wind  # noqa: E402
from calibration_gps_sentences import gps_sentences, rewrite  # noqa: E402

binary, fixtures = sys.argv[1:3]
check = Checks("calibration-check")
work = tempfile.mkdtemp(prefix="telltale-calibration-")
DAYS = [os.path.join(fixtures, f"irene-2014-06-{d}.txt") for d in ("11", "18", "19-a", "19-b", "20", "25")]


def learn(logs, output=None):
    command = [binary, "calibrate", "sailing", *logs, "--json"] + (["--output", output] if output else [])
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    return result.returncode, (json.loads(result.stdout) if result.stdout.strip().startswith("{") else {}), result


def altered(path, name, change):
    """The log rewritten line by line through pynmea2, `change(message)` on each sentence it parses."""
    return rewrite(path, os.path.join(work, name), lambda m, text: [str(m)] if change(m) else [text])


def turn_wind(degrees):
    def change(m):
        if m.sentence_type == "MWV" and m.reference == "R" and m.wind_angle:
            m.wind_angle = f"{(float(m.wind_angle) + degrees) % 360:05.1f}"
            return True
        if m.sentence_type == "VWR" and m.deg_r:
            signed = (float(m.deg_r) if m.l_r == "R" else -float(m.deg_r)) + degrees
            signed = (signed + 180) % 360 - 180
            m.deg_r, m.l_r = f"{abs(signed):05.1f}", ("R" if signed >= 0 else "L")
            return True
        return False
    return change


def scale_speed(factor):
    def change(m):
        if m.sentence_type == "VHW" and m.water_speed_knots:
            m.water_speed_knots = f"{float(m.water_speed_knots) * factor:04.1f}"
            return True
        return False
    return change


def card(h):
    """The compass card injected: 4° of permanent magnetism, 2° of soft iron (degrees added to the heading)."""
    return 4 * math.sin(math.radians(h)) + 2 * math.cos(math.radians(2 * h))


def deviate(m):
    if m.sentence_type == "HDG" and m.heading:
        h = float(m.heading)
        m.heading = f"{(h + card(h)) % 360:05.1f}"
        return True
    if m.sentence_type == "VHW" and m.heading_magnetic:
        h = float(m.heading_magnetic)
        m.heading_magnetic = f"{(h + card(h)) % 360:05.1f}"
        return True
    return False


def curve(report):
    terms = report.get("deviation", {}).get("coefficients") or [0] * 5
    return lambda h: sum(t * f for t, f in zip(terms, (1, math.sin(math.radians(h)), math.cos(math.radians(h)),
                                                        math.sin(math.radians(2 * h)), math.cos(math.radians(2 * h)))))


def true_wind(logs, calibration, sentence="MWV"):
    """The replay's true wind angles (MWV T), or directions (MWD), in order, with the calibration applied."""
    result = subprocess.run([binary, "replay", "--fast", "--computed-only", "--calibration", calibration, *logs],
                            capture_output=True, text=True, timeout=600)
    angles = []
    for line in result.stdout.splitlines():
        if sentence in line and (sentence == "MWD" or ",T," in line):
            field = line.split(",")[1]
            angles.append(float(field) if field else None)
    return angles


def compare(a, b):
    pairs = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]
    return statistics.median(abs((x - y + 180) % 360 - 180) for x, y in pairs) if pairs else 180, len(pairs), len(a), len(b)


original = os.path.join(work, "original.toml")
status, report, result = learn(DAYS, original)
values = {k: report.get(k, {}) for k in ("awa_offset", "upwash_upwind", "upwash_downwind", "speed_factor")}
check(status == 0 and all("value" in v and "count" in v and "status" in v for v in values.values())
      and report.get("tacks", {}).get("count", 0) >= 15 and len(report.get("manoeuvres", [])) >= 25
      and os.path.exists(original),
      "learnt on six days of Lake Geneva: " + ", ".join(
          f"{k} {v.get('value', 0):.3f} ± {v.get('uncertainty') or 0:.3f} ({v.get('count')}, {v.get('status')})"
          for k, v in values.items()) + f"; {report.get('tacks', {}).get('count')} tacks, "
      f"{report.get('gybes', {}).get('count')} gybes", result.stderr[-300:])

turned = [altered(d, "turned-" + os.path.basename(d), turn_wind(5)) for d in DAYS]
status, turned_report, _ = learn(turned, os.path.join(work, "turned.toml"))
moved = turned_report.get("awa_offset", {}).get("value", 0) - values["awa_offset"].get("value", 0)
check(status == 0 and abs(moved + 5) <= 1,
      f"every apparent wind angle turned by +5° (pynmea2): the learnt offset moves by {moved:+.2f}° (-5 ± 1)")
scaled = [altered(d, "scaled-" + os.path.basename(d), scale_speed(1.08)) for d in DAYS]
status, scaled_report, _ = learn(scaled, os.path.join(work, "scaled.toml"))
ratio = values["speed_factor"].get("value", 1) / max(scaled_report.get("speed_factor", {}).get("value", 1), 1e-9)
check(status == 0 and abs(ratio - 1.08) <= 1.08 * 0.015,
      f"boat speed scaled by 1.08 (pynmea2): the learnt factor moves by 1/{ratio:.4f} (1/1.08 ± 1.5 %)")

# The compass card needs headings all round: every day of both years (Lake Geneva's beats run along the lake on the
# same two headings, where a card and the leeway cannot be told apart).
EVERY = sorted(os.path.join(fixtures, name) for name in os.listdir(fixtures) if name.startswith("irene-"))
everything = os.path.join(work, "every-day.toml")
_, every_report, _ = learn(EVERY, everything)
deviated = [altered(d, "deviated-" + os.path.basename(d), deviate) for d in EVERY]
status, deviated_report, _ = learn(deviated, os.path.join(work, "deviated.toml"))
before, after = curve(every_report), curve(deviated_report)
# The compass now says h + card(h) where it said h: the curve learnt there should say card(h) less.
misses = {h: after((h + card(h)) % 360) - (before(h) - card(h)) for h in range(0, 360, 45)}
check(status == 0 and deviated_report.get("deviation", {}).get("applied") and max(abs(v) for v in misses.values()) <= 1,
      f"a deviation of 4° sin h + 2° cos 2h added to every heading (HDG, VHW; pynmea2) of all {len(EVERY)} days: the "
      f"learnt curve moves by it "
      f"within {max(abs(v) for v in misses.values()):.2f}° at every 45° (1° allowed); "
      f"{deviated_report.get('deviation', {}).get('status')}", {h: round(v, 2) for h, v in misses.items()})
day = [DAYS[4]]
base = true_wind(day, original)
deviated_day = [d for d in deviated if d.endswith(os.path.basename(DAYS[4]))]
median, pairs, n1, n2 = compare(true_wind(day, everything, "MWD"),
                                true_wind(deviated_day, os.path.join(work, "deviated.toml"), "MWD"))
check(pairs > 1000 and median <= 1.5,
      f"the calibrated replay of the log with the deviation gives the calibrated original's true wind direction: median "
      f"{median:.2f}° apart over {pairs} MWD", (n1, n2))
for label, logs, calibration in (("turned by +5°", [turned[4]], os.path.join(work, "turned.toml")),
                                 ("speed × 1.08", [scaled[4]], os.path.join(work, "scaled.toml"))):
    median, pairs, n1, n2 = compare(base, true_wind(logs, calibration))
    check(pairs > 1000 and median <= 1.5,
          f"the calibrated replay of the log {label} gives the calibrated original's true wind: median "
          f"{median:.2f}° apart over {pairs} MWV T", (n1, n2))

learnt_polar(binary, check, work)
class_polar(binary, check, work)
simulated_errors(binary, check, work)
simulated_course(binary, check, work)
simulated_truth(binary, check, work)
simulated_reaches(binary, check, work)
simulated_reach_by_wind(binary, check, work)
simulated_log_side(binary, check, work)
log_steps(check, fixtures, learn, altered)
morning_after(binary, check, fixtures, learn, work)
dated_steps(binary, check, fixtures, learn, ELEVEN, work)
gps_sentences(binary, check, fixtures, learn, work)

stuck = altered(DAYS[4], "stuck.txt", lambda m: m.sentence_type == "MWV" and m.reference == "R"
                and setattr(m, "wind_angle", "045.0") is None)
result = subprocess.run([binary, "calibrate", "sailing", stuck], capture_output=True, text=True, timeout=120)
check(result.returncode == 65 and "sensor fault" in result.stderr + result.stdout
      and "stuck at 45°" in result.stderr + result.stdout,
      f"a wind angle stuck at 45°: a sensor fault, nothing learnt (exit {result.returncode})",
      (result.stdout + result.stderr)[-300:])
with open(DAYS[4], errors="replace") as f:
    lines = f.readlines()
short = os.path.join(work, "short.txt")
with open(short, "w") as f:
    f.writelines(lines[:600])
result = subprocess.run([binary, "calibrate", "sailing", short, "--output", os.path.join(work, "short.toml")],
                        capture_output=True, text=True, timeout=120)
written = open(os.path.join(work, "short.toml")).read() if os.path.exists(os.path.join(work, "short.toml")) else ""
check(result.returncode == 0 and "not enough data" in result.stdout
      and "\nawa_offset" not in written and "\nspeed_factor" not in written,
      "two minutes of sailing without a manoeuvre: not enough data, nothing applied in the file")
# A log without the paddle wheel's VHW has no second of sailing, and the learner says what it lacks.
dry = os.path.join(work, "no-log.txt")
with open(dry, "w") as f:
    f.writelines(line for line in lines if "VHW" not in line)
result = subprocess.run([binary, "calibrate", "sailing", dry], capture_output=True, text=True, timeout=120)
check(result.returncode == 0 and "the logs carry no speed through the water (VHW)" in result.stdout,
      "a log without VHW: nothing to learn from, and it says the logs carry no speed through the water",
      result.stdout[-300:])
# A recorded NMEA 2000 bus (canboat's recording of a motor yacht's, Actisense serial): read into seconds of sailing by
# the gateway's own converter; a boat under engine with no manoeuvre says "not enough data" and writes nothing.
bus = os.path.join(fixtures, "..", "n2k", "dirona-actisense-serial.raw")
if os.path.exists(bus):
    result = subprocess.run([binary, "calibrate", "sailing", bus, "--json"], capture_output=True, text=True, timeout=120)
    report = json.loads(result.stdout) if result.stdout.strip().startswith("{") else {}
    check(result.returncode == 0 and report.get("samples", 0) >= 30
          and report.get("awa_offset", {}).get("status") == "not enough data"
          and not any(v.get("applied") for v in report.values() if isinstance(v, dict)),
          f"a recorded NMEA 2000 bus (a motor yacht's, Actisense serial): {report.get('samples')} s of sailing read "
          f"from it, not enough data, nothing applied", result.stderr[-200:])
else:
    print("calibration-check: ../shared/fixtures/n2k is absent: the NMEA 2000 recording is skipped")
bad = os.path.join(work, "bad.toml")
with open(bad, "w") as f:
    f.write("[sailing]\nawa_offset = 25\n")
result = subprocess.run([binary, "replay", "--fast", "--calibration", bad, short], capture_output=True, text=True,
                        timeout=60)
check(result.returncode != 0 and "awa_offset" in result.stderr,
      f"a calibration file with an offset of 25° is refused by the replay (exit {result.returncode})",
      result.stderr[-200:])
check.finish()
