#!/usr/bin/env python3
"""How far a calibration moves what the gateway computes (#50: "the calibrated true wind angle and heading never more
than 12° from the uncalibrated ones"): each log replayed with and without it (`telltale replay --fast
--computed-only --tag-time [--calibration FILE]`), the computed true wind angle (MWV T) and heading (HDT) compared
second by second (a second's last value each, where both replays have one); beyond the bound means more than 12.1°
apart (each sentence's angle is rounded to a tenth).

Usage: calibration_bound.py TELLTALE CALIBRATION.toml LOG...
"""
import statistics
import subprocess
import sys

BOUND = 12.0
# The two replays' sentences each round the angle to a tenth of a degree: a second held at the bound may read 12.1° apart.
ROUNDING = 0.1


def computed(binary, log, calibration=None):
    """{second: (TWA signed, heading)} of one replay, either None where the second has none."""
    command = [binary, "replay", "--fast", "--computed-only", "--tag-time", log]
    if calibration:
        command[2:2] = ["--calibration", calibration]
    out = {}
    for line in subprocess.run(command, capture_output=True, text=True, timeout=900, check=True).stdout.splitlines():
        if not line.startswith("\\c:") or "*" not in line:
            continue
        second = int(line[3:line.index("*")]) // 1000
        fields = line.split("$", 1)[-1].split("*")[0].split(",")
        twa, heading = out.get(second, (None, None))
        if fields[0][2:] == "MWV" and len(fields) > 5 and fields[2] == "T" and fields[5] == "A" and fields[1]:
            twa = (float(fields[1]) + 180) % 360 - 180
        elif fields[0][2:] == "HDT" and fields[1]:
            heading = float(fields[1])
        out[second] = (twa, heading)
    return out


def apart(a, b):
    return abs((a - b + 180) % 360 - 180)


def compared(binary, calibration, logs):
    """The seconds of `logs` compared with and without `calibration`: how far apart the true wind angles and headings
    are (sorted, degrees), how many seconds, how many beyond ``BOUND``, the largest."""
    twa, heading = [], []
    for log in logs:
        raw, calibrated = computed(binary, log), computed(binary, log, calibration)
        for second, (t0, h0) in raw.items():
            t1, h1 = calibrated.get(second, (None, None))
            if t0 is not None and t1 is not None:
                twa.append(apart(t0, t1))
            if h0 is not None and h1 is not None:
                heading.append(apart(h0, h1))
    twa.sort()
    heading.sort()
    figures = {"twa": twa, "heading": heading}
    for name, values in (("twa", twa), ("heading", heading)):
        figures[name + "_count"] = len(values)
        figures[name + "_beyond"] = sum(1 for v in values if v > BOUND + ROUNDING)
        # Held at the bound: the calibration applied only in part (or all of it, turning the angle just so far).
        figures[name + "_held"] = sum(1 for v in values if BOUND - ROUNDING <= v <= BOUND + ROUNDING)
        figures[name + "_max"] = values[-1] if values else 0.0
    return figures


def main():
    binary, calibration, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
    figures = compared(binary, calibration, logs)
    for name, key in (("heading", "heading"), ("true wind angle", "twa")):
        values = figures[key]
        if not values:
            print(f"{name}: no second to compare")
            continue
        print(f"{name}: median {statistics.median(values):.1f}°, 99 % within {values[int(0.99 * (len(values) - 1))]:.1f}°, "
              f"at most {values[-1]:.1f}°; {figures[key + '_beyond']} of {len(values)} seconds beyond {BOUND:.0f}°, "
              f"{figures[key + '_held']} at it")


if __name__ == "__main__":
    main()
