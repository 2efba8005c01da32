"""The calibration check's morning-after part (calibration_check.py): the log changed overnight, seen from the
morning's handful of manoeuvres.

Irene's log read about a fifth low from 11 to 25 June 2014 and as before again from 27 June. Learnt on the 11 days to
25 June and the morning of 27 June (irene-2014-06-27-a: four tacks and gybes, two bear-aways), the learner must find
the step on 27 June from those few (fewer than a step between days needs), say it provisional, and apply the log's
factor since all the same: within 5 % of the ground's, the median of SOG (RMC) over the log (VHW) read by pynmea2 on
the days after (27 June's afternoon to 29 June; a lake has no stream). The calibrated replay of those days (held out:
never learnt from) must then move the computed true wind angle as far as 12° (where the engine holds it: all of the
calibration would turn it further) for under 0.5 % of the seconds (Benchmarks/calibration_bound.py), fewer than the 11
days' calibration alone does (the fortnight's log applied, with the wind speed read alike since 2026-11-30), and neither
beyond it; `telltale replay` must say the seconds it applied it only in part, and many more for the 11 days' file with
its wind speed's factor taken out (the fortnight's log applied alone: the triangle bent). The
morning's log given twice (a copy under another name) must be read once: counted twice, its six manoeuvres would be
twelve, and the step no longer provisional."""

import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Benchmarks"))

from calibration_bound import BOUND, compared  # noqa: E402
from calibration_log_steps import ground_over_log  # noqa: E402

ELEVEN = ["irene-2013-08-02-race", "irene-2013-08-03-race", "irene-2013-training-0", "irene-2013-training-1",
          "irene-2013-training-2", "irene-2014-06-11", "irene-2014-06-18", "irene-2014-06-19-a", "irene-2014-06-19-b",
          "irene-2014-06-20", "irene-2014-06-25"]
MORNING = "irene-2014-06-27-a"
AFTER = ["irene-2014-06-27-b", "irene-2014-06-28", "irene-2014-06-29"]


def in_part(binary, calibration, logs):
    """The seconds `telltale replay --calibration` says it applied the calibration only in part, over `logs` (-1 when
    a replay fails)."""
    total = 0
    for log in logs:
        run = subprocess.run([binary, "replay", "--fast", "--computed-only", "--calibration", calibration, log],
                             capture_output=True, text=True, timeout=900)
        if run.returncode != 0:
            return -1
        found = re.search(r"applied only in part for (\d+) s", run.stderr)
        total += int(found.group(1)) if found else 0
    return total


def morning_after(binary, check, fixtures, learn, work):
    path = lambda name: os.path.join(fixtures, name + ".txt")  # noqa: E731
    eleven, morning = os.path.join(work, "eleven.toml"), os.path.join(work, "morning.toml")
    learn([path(n) for n in ELEVEN], eleven)
    _, report, _ = learn([path(n) for n in ELEVEN + [MORNING]], morning)
    steps = report.get("log_steps", [])
    last = steps[-1] if steps else {}
    factor = report.get("speed_factor", {})
    ground = ground_over_log([path(n) for n in AFTER])
    written = [line for line in open(morning) if line.startswith("speed_factor = ")] if os.path.exists(morning) else []
    check(last.get("time", "").startswith("2014-06-27") and last.get("provisional") is True
          and 5 <= last.get("count_after", 0) < 8 and factor.get("applied") is True
          and str(factor.get("status", "")).startswith("provisional")
          and abs(factor.get("value", 0) / ground - 1) <= 0.05 and len(written) == 1,
          f"the 11 days and 27 June's morning: the step on {last.get('time', '?')[:10]} seen from "
          f"{last.get('count_after', 0)} manoeuvres, provisional ({last.get('provisional')}); the log's factor since "
          f"{factor.get('value', 0):.4f} ({factor.get('status', '?')[:11]}, applied: {factor.get('applied')}) against "
          f"the ground's {ground:.4f} on the days after (5 % at most apart)", [last, factor, written])
    logs = [path(n) for n in AFTER]
    with_morning, alone = compared(binary, morning, logs), compared(binary, eleven, logs)
    held = lambda figures: figures["twa_held"] / max(figures["twa_count"], 1)  # noqa: E731
    check(with_morning["twa_count"] > 20_000 and held(with_morning) < 0.005 and held(with_morning) <= held(alone),
          f"27 June's afternoon to 29 June replayed (held out): the true wind angle moved as far as {BOUND:.0f}° for "
          f"{with_morning['twa_held']} of {with_morning['twa_count']} seconds (under 0.5 %), where the 11 days' "
          f"calibration alone (the fortnight's log) is held there for {alone['twa_held']}", [with_morning, alone])
    check(with_morning["twa_beyond"] == 0 and alone["twa_beyond"] == 0 and alone["heading_beyond"] == 0,
          f"and never beyond it (12.1° with the sentences' rounding): {with_morning['twa_beyond']} and "
          f"{alone['twa_beyond']} seconds (at most {with_morning['twa_max']:.1f}° and {alone['twa_max']:.1f}°; the "
          f"heading at most {alone['heading_max']:.1f}°)", [with_morning, alone])
    bent = os.path.join(work, "eleven-log-alone.toml")
    with open(eleven) as f, open(bent, "w") as out:
        out.writelines(line for line in f if not line.startswith("aws_factor"))
    limited = {name: in_part(binary, file, logs) for name, file in (("morning", morning), ("bent", bent))}
    count = with_morning["twa_count"]
    check(0 <= limited["morning"] < 0.005 * count and limited["bent"] > 10 * max(limited["morning"], 1),
          f"`telltale replay` says how long the calibration was applied only in part on those days: "
          f"{limited['morning']} s with the morning learnt (under 0.5 % of {count}), {limited['bent']} s with the 11 "
          f"days' file without its wind speed's factor (the fortnight's log alone, on days that read a fifth more)",
          limited)
    copy = os.path.join(work, "copy-of-" + MORNING + ".txt")
    shutil.copyfile(path(MORNING), copy)
    _, twice, _ = learn([path(n) for n in ELEVEN + [MORNING]] + [copy])
    again = (twice.get("log_steps") or [{}])[-1]
    check(twice.get("samples") == report.get("samples") and again.get("provisional") is True
          and again.get("count_after") == last.get("count_after"),
          f"the morning's log given twice (a copy): read once, {twice.get('samples')} s of sailing as with it once "
          f"({report.get('samples')}), the step still provisional from {again.get('count_after')} manoeuvres",
          [twice.get("samples"), again])
