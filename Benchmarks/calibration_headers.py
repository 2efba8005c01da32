#!/usr/bin/env python3
"""Are the tacks' jumps the crew's tactics? (#50) A crew that tacks on headers in an oscillating wind ties the wind's
own shift to the side the boat tacks from, which the tack bias (the median signed jump) would then hold as if it were
an instrument's error. For each upwind tack `telltale calibrate sailing --judge` finds (nothing applied), the shift the
boat sailed into before it: the true wind direction over the 35 s before the tack against that of the 35 s a
minute and a half earlier, signed as the jump is (by the side the boat came from: negative, headed). Then: how many
tacks came on a header, how the jump goes with the shift before it, and what is left of the jumps once the part
that follows the shift (a least-squares slope over these very tacks: an upper bound on what it could explain) is
taken out.

The direction each second is a plain triangle of the log's own HDG, MWV R and VHW (the second from RMC), not the
learner's, so that nothing the learner does is in it.

Usage: calibration_headers.py TELLTALE LOG...
"""
import datetime
import json
import math
import statistics
import subprocess
import sys


def directions(path):
    """{unix second: true wind direction (degrees, magnetic)} of a log."""
    out, second, heading, awa, aws, stw = {}, None, None, None, None, None
    for raw in open(path, "rb"):
        f = raw.decode("ascii", "replace").strip().split("*")[0].split(",")
        kind = f[0][3:6]
        try:
            if kind == "RMC" and len(f) > 9 and f[2] == "A" and len(f[1]) >= 6 and len(f[9]) == 6:
                d, t = f[9], f[1]
                second = datetime.datetime(2000 + int(d[4:6]), int(d[2:4]), int(d[0:2]), int(t[0:2]), int(t[2:4]),
                                           int(float(t[4:])), tzinfo=datetime.timezone.utc).timestamp()
            elif kind == "HDG" and len(f) > 1 and f[1]:
                heading = float(f[1])
            elif kind == "MWV" and len(f) > 3 and f[2] == "R" and f[1] and f[3]:
                awa, aws = (float(f[1]) + 180) % 360 - 180, float(f[3])
            elif kind == "VHW" and len(f) > 5 and f[5]:
                stw = float(f[5])
        except ValueError:
            continue
        if None not in (second, heading, awa, stw):
            a = math.radians(awa)
            out[int(second)] = (heading + math.degrees(math.atan2(aws * math.sin(a), aws * math.cos(a) - stw))) % 360
    return out


def mean_over(seconds, start, end):
    """The mean direction over [start, end) s, or None with under 60 % of its seconds."""
    values = [math.radians(seconds[t]) for t in range(int(start), int(end)) if t in seconds]
    if len(values) < 0.6 * (end - start):
        return None
    return math.degrees(math.atan2(sum(map(math.sin, values)), sum(map(math.cos, values))))


def turn(a, b):
    return (a - b + 180) % 360 - 180


def tacks(telltale, log, nothing):
    """(jump, shift before) of each of the log's tacks, both signed by the side the boat came from."""
    answer = subprocess.run([telltale, "calibrate", "sailing", log, "--judge", nothing, "--json"],
                            capture_output=True, check=True).stdout
    seconds, out = directions(log), []
    for m in json.loads(answer)["manoeuvres"]:
        if m["kind"] != "tack" or m.get("twd_before") is None or m.get("twd_after") is None:
            continue
        at = datetime.datetime.fromisoformat(m["time"].replace("Z", "+00:00")).timestamp()
        side = 1 if m["from"] == "starboard" else -1
        earlier, before = mean_over(seconds, at - 130, at - 95), mean_over(seconds, at - 40, at - 5)
        if earlier is not None and before is not None:
            out.append((side * turn(m["twd_after"], m["twd_before"]), side * turn(before, earlier)))
    return out


def main():
    telltale, logs = sys.argv[1], sys.argv[2:]
    nothing = "/tmp/telltale-headers-nothing.toml"
    with open(nothing, "w") as f:
        f.write("[sailing]\n")
    pairs = [pair for log in logs for pair in tacks(telltale, log, nothing)]
    jumps, shifts = [j for j, _ in pairs], [s for _, s in pairs]
    print(f"{len(pairs)} tacks: signed jump {statistics.median(jumps):+.1f}° (median), size {statistics.median(map(abs, jumps)):.1f}°")
    print(f"shift before the tack: median {statistics.median(shifts):+.1f}°; headed by over 5° {sum(s < -5 for s in shifts)}, "
          f"lifted by over 5° {sum(s > 5 for s in shifts)}")
    for low, high, words in ((-99, -5, "headed > 5°"), (-5, 5, "within 5°"), (5, 99, "lifted > 5°")):
        group = [j for j, s in pairs if low <= s < high]
        if group:
            print(f"  {words}: {len(group)} tacks, signed jump {statistics.median(group):+.1f}°")
    mj, ms = statistics.mean(jumps), statistics.mean(shifts)
    slope = sum((s - ms) * (j - mj) for j, s in pairs) / sum((s - ms) ** 2 for s in shifts)
    spread = math.sqrt(sum((s - ms) ** 2 for s in shifts) * sum((j - mj) ** 2 for j in jumps))
    left = [j - slope * s for j, s in pairs]
    print(f"jump against shift before: correlation {sum((s - ms) * (j - mj) for j, s in pairs) / spread:+.2f}, "
          f"slope {slope:+.2f}; with it taken out: signed {statistics.median(left):+.1f}°, size {statistics.median(map(abs, left)):.1f}°")


if __name__ == "__main__":
    main()
