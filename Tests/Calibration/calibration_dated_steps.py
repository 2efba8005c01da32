"""The calibration check's dated steps (calibration_check.py): an old log replayed with today's calibration reads the
log as it read then.

Irene's log read about a fifth low from 11 June 2014 (the instruments' speed setting: the wind speed with it). Learnt
on the 11 days to 25 June, the file carries the step (`log_steps`, its ratios). Replayed with it, a log of 2013 (from
before the step) must give a speed through water that the ground confirms: the calibrated STW of each second (the
replay's VPW over the cosine of its MWV T angle, where that cosine is 0.5 or more) against the fix's SOG (RMC, read by
pynmea2), their median within 5 % of 1; the same file without its steps reads the 2013 log by the fortnight's factor,
some 20 % high (the check fails if the steps are not applied). A log of the fortnight (after the step) replays the
same to the character with the steps or without them."""

import math
import os
import statistics
import subprocess
import sys
from datetime import datetime, timezone

from calibration_log_steps import parsed

OLD = "irene-2013-08-03-race"
AFTER = "irene-2014-06-25"


def replay(binary, log, calibration):
    command = [binary, "replay", "--fast", "--computed-only", "--tag-time", "--calibration", calibration, log]
    return subprocess.run(command, capture_output=True, text=True, timeout=900, check=True).stdout


def speeds(text):
    """{second: calibrated STW (kn)} from a replay's VPW and MWV T of each second (its last of each)."""
    vpw, twa = {}, {}
    for line in text.splitlines():
        if not line.startswith("\\c:") or "*" not in line:
            continue
        second = int(line[3:line.index("*")]) // 1000
        fields = line.split("$", 1)[-1].split("*")[0].split(",")
        if fields[0][2:] == "VPW" and len(fields) > 1 and fields[1]:
            vpw[second] = float(fields[1])
        elif fields[0][2:] == "MWV" and len(fields) > 5 and fields[2] == "T" and fields[5] == "A" and fields[1]:
            twa[second] = float(fields[1])
    out = {}
    for second, made_good in vpw.items():
        angle = twa.get(second)
        if angle is not None and abs(math.cos(math.radians(angle))) >= 0.5:
            out[second] = made_good / math.cos(math.radians(angle))
    return out


def ground(log):
    """{second (UNIX): SOG (kn)} of the log's valid fixes, by pynmea2."""
    out = {}
    for m in parsed(log):
        if m.sentence_type == "RMC" and m.status == "A" and m.datestamp and m.timestamp and m.spd_over_grnd:
            when = datetime.combine(m.datestamp, m.timestamp).replace(tzinfo=timezone.utc)
            out[int(when.timestamp())] = float(m.spd_over_grnd)
    return out


def over_ground(stw, sog):
    ratios = [s / sog[t] for t, s in stw.items() if t in sog and sog[t] > 2 and s > 2]
    return (statistics.median(ratios) if ratios else float("nan")), len(ratios)


def dated_steps(binary, check, fixtures, learn, eleven_names, work):
    path = lambda name: os.path.join(fixtures, name + ".txt")  # noqa: E731
    dated, undated = os.path.join(work, "dated.toml"), os.path.join(work, "undated.toml")
    learn([path(n) for n in eleven_names], dated)
    lines = open(dated).read().splitlines(keepends=True) if os.path.exists(dated) else []
    steps = [line for line in lines if line.startswith("log_step")]
    with open(undated, "w") as f:
        f.writelines(line for line in lines if not line.startswith("log_step"))
    sog = ground(path(OLD))
    with_steps, n = over_ground(speeds(replay(binary, path(OLD), dated)), sog)
    without, m = over_ground(speeds(replay(binary, path(OLD), undated)), sog)
    check(len(steps) == 3 and "2014-06-11" in steps[0] and n > 1000 and abs(with_steps - 1) <= 0.05
          and without - 1 > 0.1,
          f"a 2013 log replayed with the 11 days' file (its step of 2014-06-11 dated): calibrated STW over SOG "
          f"{with_steps:.3f} over {n} s (5 % at most from 1); without the steps {without:.3f} over {m} s",
          steps)
    same = replay(binary, path(AFTER), dated) == replay(binary, path(AFTER), undated)
    check(same, "a log of the fortnight (after the step) replays the same with the steps and without them")


if __name__ == "__main__":
    sys.exit("run by calibration_check.py")
