"""The calibration check's simulator part (calibration_check.py): known errors injected into a simulated voyage.

`telltale simulate` sails a zig-zag of 12 beats (true wind angle 70°, the tacks between them) and 12 runs (gybes
between them) in 12 knots, twice with the same seed: with true instruments, and with the masthead unit turned by +5°
and the log reading 0.93 of the speed (`--awa-error 5 --log-error 0.93`). The learner finds the log's factor of the
true voyage within 1 % of 1 (the leeway allowed for as the engine does, from the heel), and on the other voyage the
offset moved by −5 ± 1° and the factor by 1/0.93 ± 1.5 %.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Interop"))
from piloted_boat import destination  # noqa: E402


def zigzag(path):
    point, points = (50.60, -1.20), [(50.60, -1.20)]
    for i in range(12):  # the wind from 225°: beats at 155° and 295°
        point = destination(*point, 155 if i % 2 == 0 else 295, 700)
        points.append(point)
    for i in range(12):  # runs at 15° and 75°
        point = destination(*point, 15 if i % 2 == 0 else 75, 800)
        points.append(point)
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="calibration-check" '
                'xmlns="http://www.topografix.com/GPX/1/1"><rte><name>Zigzag</name>')
        for i, (lat, lon) in enumerate(points):
            f.write(f'<rtept lat="{lat:.6f}" lon="{lon:.6f}"><name>P{i}</name></rtept>')
        f.write("</rte></gpx>\n")


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
