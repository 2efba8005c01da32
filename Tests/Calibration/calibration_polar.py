"""The calibration check's polar part (calibration_check.py): the boat's real polar learnt from simulated voyages.

`telltale simulate` sails a star of sixteen legs of 2.5 km (every point of sail from 50° to a run, both gybes) for four
hours in 8 and in 12 knots of steady wind (`--gust 0 --shift 0`: the instruments' noise, the waves and the current
stay); `telltale calibrate sailing --polar` learns the polar from the two logs. Every cell with three steady minutes or
more from 40° is compared with the simulator's own polar (its polar.csv), read and interpolated here, at the true wind
angle and speed where the cell's minutes lay: within 3 %. (Below 40° the table is the ramp from head to wind, 10 % a
degree: a tenth of a degree of angle is more than 3 % there.) The learnt table is one `polar` reads (`telltale
check-config`). With the gusts and shifts on, docs/benchmarks.md has the figures.
"""
import bisect
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Interop"))
from piloted_boat import destination  # noqa: E402

BEARINGS = [0, 90, 160, 300, 45, 315, 135, 350, 100, 290, 20, 120, 330, 60, 170, 280]  # the wind from 225°


def write_route(path, points, name, prefix="P"):
    """A GPX route through `points` (latitude, longitude), its waypoints named `prefix` and their number."""
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="calibration-check" '
                f'xmlns="http://www.topografix.com/GPX/1/1"><rte><name>{name}</name>')
        for i, (lat, lon) in enumerate(points):
            f.write(f'<rtept lat="{lat:.6f}" lon="{lon:.6f}"><name>{prefix}{i}</name></rtept>')
        f.write("</rte></gpx>\n")


def star(path):
    point, points = (50.60, -1.20), [(50.60, -1.20)]
    for bearing in BEARINGS:
        point = destination(*point, bearing, 2500)
        points.append(point)
    write_route(path, points, "Star")


def table(path):
    """The simulator's polar.csv: {(angle, wind speed): knots}."""
    rows = [line.strip().split(";") for line in open(path) if line.strip()]
    winds = [float(x) for x in rows[0][1:]]
    return {(float(row[0]), w): float(v) for row in rows[1:] for w, v in zip(winds, row[1:]) if v}


def interpolate(polar, angle, wind):
    angles = sorted({a for a, _ in polar})
    winds = sorted({w for _, w in polar})

    def along(values, x):
        i = min(max(bisect.bisect_left(values, x), 1), len(values) - 1)
        return values[i - 1], values[i], (x - values[i - 1]) / (values[i] - values[i - 1])

    a0, a1, f = along(angles, angle)
    w0, w1, g = along(winds, wind)

    def at(w):
        return polar[(a0, w)] * (1 - f) + polar[(a1, w)] * f
    return at(w0) * (1 - g) + at(w1) * g


def learnt_polar(binary, check, work):
    route = os.path.join(work, "star.gpx")
    star(route)
    logs = []
    for knots in (8, 12):
        out = os.path.join(work, f"sim{knots}")
        subprocess.run([binary, "simulate", "--route", route, "--output", out, "--duration", "14400", "--wind-speed",
                        str(knots), "--roll", "0", "--mast-height", "0", "--seed", str(knots), "--gust", "0",
                        "--shift", "0"],
                       check=True, capture_output=True, timeout=600)
        logs.append(os.path.join(out, "voyage.nmea"))
    learnt = os.path.join(work, "learnt.pol")
    result = subprocess.run([binary, "calibrate", "sailing", *logs, "--polar", learnt, "--json"], capture_output=True,
                            text=True, timeout=300)
    cells = [c for c in (json.loads(result.stdout).get("polar", []) if result.returncode == 0 else [])
             if c["count"] >= 3 and c["twa"] >= 40]
    own = table(os.path.join(work, "sim8", "polar.csv"))
    errors = [(c["twa"], c["tws"], 100 * (c["speed"] / interpolate(own, c["mean_twa"], c["mean_tws"]) - 1))
              for c in cells]
    worst = max(errors, key=lambda e: abs(e[2]), default=(0, 0, 100))
    check(len(cells) >= 30 and abs(worst[2]) <= 3,
          f"the polar learnt from 8 h of simulated steady sailing: {len(cells)} cells from 40°, each within 3 % of the "
          f"simulator's own polar (the worst {worst[2]:+.1f} % at {worst[0]:.0f}°, {worst[1]:.0f} kn)",
          [e for e in errors if abs(e[2]) > 3][:6])
    config = os.path.join(work, "polar.toml")
    with open(config, "w") as f:
        f.write(f'polar = "{learnt}"\n')
    result = subprocess.run([binary, "check-config", config], capture_output=True, text=True, timeout=60)
    check(result.returncode == 0 and "polar of" in result.stdout,
          f"the learnt polar is one `polar` reads: {result.stdout.strip()}", result.stderr[-200:])
