"""The calibration check's reaching-by-wind-speed part (calibration_check.py): a masthead unit that reads the reach
wider in a moderate breeze than in a strong one.

`telltale simulate --racing` sails the Olympic-style triangle of calibration_reaches.py twenty times round on two days:
in a steady 12 kn (the gybes between reaches at some 80° apparent) with the masthead unit reading the reach 6° wide,
and the next day in 22 kn reading it 2° wide (`--upwash-error 0,6,0` and `0,2,0`); and the same two days with true
instruments. The second day's RMC dates are moved on by a day (the simulator starts every voyage at the same
second). Learnt from both days together: each band of wind speed (9 to 15 kn, 15 kn and over) must move its reaching
upwash by what was injected in it (−6 and −2, ± 1) and be sure, the table must carry a reaching row, and the calibrated
replays of the two days with the error must give the calibrated true days' wind direction where one reaching value
for both days cannot."""

import datetime
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calibration_reaches import triangle  # noqa: E402
from calibration_simulated import replay_directions, sail_and_learn  # noqa: E402


def checksum(body):
    total = 0
    for ch in body:
        total ^= ord(ch)
    return f"{total:02X}"


def next_day(path, out):
    """The log with every RMC's date a day later (its checksum made again)."""
    with open(path) as source, open(out, "w") as sink:
        for line in source:
            text = line.strip()
            if text.startswith("$") and text[3:6] == "RMC" and "*" in text:
                fields = text[1:text.index("*")].split(",")
                day = datetime.datetime.strptime(fields[9], "%d%m%y") + datetime.timedelta(days=1)
                fields[9] = day.strftime("%d%m%y")
                body = ",".join(fields)
                text = f"${body}*{checksum(body)}"
            sink.write(text + "\r\n")
    return out


def band(report, lower):
    for b in report.get("upwash_by_tws", []):
        if b.get("from") == lower:
            return b.get("reach", {})
    return {}


def simulated_reach_by_wind(binary, check, work):
    route = os.path.join(work, "triangle-wind.gpx")
    triangle(route)
    logs = {}
    for name, speed, error in (("12-true", 12, None), ("12-wide", 12, "0,6,0"),
                               ("22-true", 22, None), ("22-wide", 22, "0,2,0")):
        args = ["--duration", "80000", "--gust", "0", "--shift", "0", "--racing", "--wind-speed", str(speed)]
        log, _, _ = sail_and_learn(binary, route, work, "reach-" + name, args + (["--upwash-error", error] if error else []))
        logs[name] = next_day(log, os.path.join(work, f"reach-{name}-next.nmea")) if speed == 22 else log
    reports, files = {}, {}
    for kind in ("true", "wide"):
        files[kind] = os.path.join(work, f"reach-by-wind-{kind}.toml")
        result = subprocess.run([binary, "calibrate", "sailing", logs["12-" + kind], logs["22-" + kind], "--json",
                                 "--output", files[kind]], capture_output=True, text=True, timeout=600)
        reports[kind] = json.loads(result.stdout) if result.returncode == 0 else {}
    moved = {lower: band(reports["wide"], lower).get("value", 0) - band(reports["true"], lower).get("value", 0)
             for lower in (9, 15)}
    sure = all(band(reports["wide"], lower).get("status") == "sure" for lower in (9, 15))
    with open(files["wide"]) as f:
        text = f.read()
    check(abs(moved[9] + 6) <= 1 and abs(moved[15] + 2) <= 1 and sure and "upwash_reach_by_tws" in text,
          f"a triangle raced on two days, the reach read 6° wide in 12 kn and 2° wide in 22 kn: the reaching upwash of "
          f"the 9-15 kn band moves by {moved[9]:+.2f}° (−6 ± 1), of the 15 kn band by {moved[15]:+.2f}° (−2 ± 1), both "
          f"sure; the file carries the reaching row", {k: band(reports["wide"], k) for k in (9, 15)})
    single = os.path.join(work, "reach-by-wind-single.toml")
    with open(single, "w") as f:
        f.write("".join(line for line in text.splitlines(True) if not line.startswith("upwash_reach_by_tws")))

    def tenth(calibrations):
        apart = []
        for speed in ("12", "22"):
            a = replay_directions(binary, logs[speed + "-true"], calibrations[0])
            b = replay_directions(binary, logs[speed + "-wide"], calibrations[1])
            apart += [abs((b[t] - a[t] + 180) % 360 - 180) for t in a if t in b]
        apart.sort()
        return apart[int(len(apart) * 0.9)] if apart else 99, len(apart)

    (by_wind, count), (one, _) = tenth((files["true"], files["wide"])), tenth((files["true"], single))
    check(count > 20000 and by_wind <= 0.5 and one >= 1,
          f"the calibrated replays of the two days read wide reaching give the calibrated true days' wind direction: "
          f"90 % of {count} seconds within {by_wind:.2f}° (0.5° at most); with one reaching value for both days 10 % "
          f"are {one:.2f}° apart or more")
