"""The calibration check's log-steps part (calibration_check.py): the log read differently from one day on.

Irene's last four logs of Lake Geneva (27 to 29 June 2014) have no step of their own. Rewritten by pynmea2 with the
log (VHW) reading 15 % less from 28 June on, the learner must find one step, on 28 June, of 0.85 (± 0.04), the
masthead unit's speed not in it, the factor it learns the log's since (the original's / 0.85), and every manoeuvre's
calibrated true wind direction the original's (the readings before scaled to it). With the apparent wind speed (MWV
R, VWR) reading 15 % less as well, the same step and factor; whether the wind speed stepped with it, ten bear-aways
and round-ups a side cannot tell on these days (their true wind speed differs from one day to the next by more than
the step moves it), and the learner must then say so rather than tell it wrong. Not told, the wind speed is taken to
have stepped with the log (the triangle's shape kept: a guess never turns the true wind angle): the log and the wind
stepped together then give the original's directions, and the log alone directions no further from the original's
calibrated ones than its uncalibrated ones are from the original's uncalibrated (what the instruments' own error
turns them by, and no more).

On all 15 days it finds the fortnight of June 2014 when the log read about a fifth less. Judged independently of
Telltale's learner: a lake has no tidal stream, so the median ratio of the speed over ground (RMC) to the log's
(VHW) over each stretch between steps, read by pynmea2, must change at each step by its ratio (within 5 %)."""

import os
import statistics

import pynmea2

START = "2014-06-28"
STEP = 0.85


def scale(factor, wind):
    """A pynmea2 change: the log's speed (and with `wind` the apparent wind's) times `factor`."""
    def change(m):
        if m.sentence_type == "VHW" and m.water_speed_knots:
            m.water_speed_knots = f"{float(m.water_speed_knots) * factor:04.1f}"
            return True
        if wind and m.sentence_type == "MWV" and m.reference == "R" and m.wind_speed:
            m.wind_speed = f"{float(m.wind_speed) * factor:04.1f}"
            return True
        if wind and m.sentence_type == "VWR" and m.wind_speed_kn:
            m.wind_speed_kn = f"{float(m.wind_speed_kn) * factor:04.1f}"
            return True
        return False
    return change


def calibrated_directions(report):
    """Each manoeuvre's calibrated true wind direction before and after, by its time."""
    return {m["time"]: (m["twd_before_calibrated"], m["twd_after_calibrated"]) for m in report.get("manoeuvres", [])}


def directions(report):
    """Each manoeuvre's uncalibrated true wind direction before and after, by its time."""
    return {m["time"]: (m["twd_before"], m["twd_after"]) for m in report.get("manoeuvres", [])}


def median_gap(mine, theirs):
    """The median of how far apart two reports' directions are, window by window, and how many windows."""
    gaps = [apart(mine[t][i], theirs[t][i]) for t in mine if t in theirs for i in (0, 1)]
    return (statistics.median(gaps) if gaps else 180), len(gaps)


def apart(a, b):
    return abs((a - b + 180) % 360 - 180)


def parsed(path):
    """Each sentence of a log that pynmea2 reads, in order (the rest skipped)."""
    with open(path, errors="replace") as f:
        for line in f:
            try:
                yield pynmea2.parse(line.strip())
            except pynmea2.ParseError:
                continue


def ground_over_log(paths):
    """The median of SOG / STW (each VHW with the RMC before it, both over 2 kn) over the logs, by pynmea2."""
    ratios = []
    for path in paths:
        sog = None
        for m in parsed(path):
            if m.sentence_type == "RMC":
                sog = m.spd_over_grnd if m.status == "A" else None
            elif m.sentence_type == "VHW" and m.water_speed_knots and sog and sog > 2:
                stw = float(m.water_speed_knots)
                if stw > 2:
                    ratios.append(float(sog) / stw)
    return statistics.median(ratios) if ratios else float("nan")


def first_date(path):
    with open(path, errors="replace") as f:
        for line in f:
            fields = line.split(",")
            if len(fields) > 9 and fields[0][3:6] == "RMC" and fields[2] == "A" and len(fields[9]) == 6:
                d = fields[9]
                return f"20{d[4:6]}-{d[2:4]}-{d[0:2]}"
    return ""


def log_steps(check, fixtures, learn, altered):
    late = [f"{fixtures}/irene-2014-06-{d}.txt" for d in ("27-a", "27-b", "28", "29")]
    _, original, _ = learn(late)
    check(original.get("log_steps") == [],
          f"27 to 29 June as logged: no step in the log's reading ({len(original.get('manoeuvres', []))} manoeuvres, "
          f"speed_factor {original.get('speed_factor', {}).get('value', 0):.4f})", original.get("log_steps"))
    base = original.get("speed_factor", {}).get("value", 1)
    for wind in (False, True):
        label = "the log and the apparent wind speed" if wind else "the log alone"
        logs = [altered(p, ("wind-" if wind else "log-") + "step-" + p.rsplit("/", 1)[-1], scale(STEP, wind))
                if START in first_date(p) or "06-29" in p else p for p in late]
        _, report, _ = learn(logs)
        steps = report.get("log_steps", [])
        step = steps[0] if len(steps) == 1 else {}
        ratio, wind_ratio = step.get("ratio", 0), step.get("wind_ratio", 0)
        factor = report.get("speed_factor", {}).get("value", 1)
        told = step.get("wind_told")
        together = abs(wind_ratio - ratio) < 1e-9
        wind_right = (together if wind else wind_ratio == 1) if told else together
        check(len(steps) == 1 and step.get("time", "").startswith(START) and abs(ratio - STEP) <= 0.04 and wind_right
              and abs(factor * STEP / base - 1) <= 0.02,
              f"{label} reading 15 % less from 28 June (pynmea2): one step, at {step.get('time', '?')[:19]}, ratio "
              f"{ratio:.3f} (0.85 ± 0.04), the wind speed's {wind_ratio:.3f} ({'told' if told else 'not told'}; never "
              f"told wrong; not told: with the log's); the factor learnt is the log's since: {base:.4f} → {factor:.4f} "
              f"(÷ 0.85 ± 2 %)", steps)
        gap = median_gap(calibrated_directions(report), calibrated_directions(original))
        if wind or told:
            check(gap[1] >= 40 and gap[0] <= 0.5,
                  f"{label} stepped: every manoeuvre's calibrated true wind direction is the original's, median "
                  f"{gap[0]:.2f}° apart over {gap[1]} windows (0.5° at most)")
            continue
        raw = median_gap(directions(report), directions(original))
        check(gap[1] >= 40 and gap[0] <= raw[0] + 0.25,
              f"{label} stepped, the wind's part not told: the calibrated true wind direction {gap[0]:.2f}° from the "
              f"original's calibrated (median over {gap[1]} windows), the uncalibrated {raw[0]:.2f}° from the "
              f"original's uncalibrated: no further (0.25°)")
    every = sorted(f"{fixtures}/{name}" for name in os.listdir(fixtures) if name.startswith("irene-"))
    _, report, _ = learn(every)
    steps = report.get("log_steps", [])
    dates = [first_date(p) for p in every]
    bounds = [s.get("time", "")[:10] for s in steps]
    stretches = [[p for p, d in zip(every, dates) if (i == 0 or d >= bounds[i - 1]) and (i == len(bounds) or d < bounds[i])]
                 for i in range(len(bounds) + 1)]
    ground = [ground_over_log(s) for s in stretches]
    said = [g1 / g0 for g0, g1 in zip(ground, ground[1:])]
    misses = [abs(s["factor_after"] / s["factor_before"] / r - 1) for s, r in zip(steps, said)]
    check(len(steps) >= 1 and all(m <= 0.05 for m in misses),
          f"all 15 days: {len(steps)} steps in the log's reading, "
          + "; ".join(f"at {s['time'][:10]} × {s['factor_after'] / s['factor_before']:.3f} (ground over log × {r:.3f}; "
                      f"the wind speed's × {1 / s['wind_ratio']:.3f}, {'told' if s['wind_told'] else 'not told'})"
                      for s, r in zip(steps, said))
          + " (5 % at most apart: the ground's own)", [(s, r) for s, r in zip(steps, said)])
