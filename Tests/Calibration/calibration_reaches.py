"""The calibration check's reaching part (calibration_check.py): the upwash reaching, injected into a simulated race.

`telltale simulate --racing` sails an Olympic-style triangle twenty times round in a steady 12 kn from 225°: a beat
of a mile, tacked on the laylines; a reach of 1.18 miles at 115° true to the wing mark; a reaching gybe; the same
reach on the other side back to the leeward mark. Every gybe is between two reaches (about 80° apparent). Sailed
twice, once with true instruments and once with the masthead unit reading the apparent angle 4° wider when reaching
(`--upwash-error 0,4,0`: fading to nothing close-hauled and running, as Telltale's points of sail do). The learnt
reaching upwash must move by the 4° injected and be sure; the upwind upwash and the offset must not move; the downwind
upwash, which these gybes say nothing of, must be "not enough data" (never a sensor fault); and the calibrated replay
of the race with the error must give the calibrated true race's wind direction."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Interop"))
from piloted_boat import destination  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calibration_polar import write_route  # noqa: E402
from calibration_simulated import replay_directions, sail_and_learn  # noqa: E402


def triangle(path, rounds=20, miles=1.0):
    """The windward mark a mile dead upwind (the wind from 225°), the wing mark at 115° true on port from it, and
    back to the leeward mark at 115° true on starboard: two equal reaches (1.18 miles each)."""
    bottom = (50.60, -1.20)
    top = destination(*bottom, 225, 1852 * miles)
    wing = destination(*top, 340, 1852 * miles * 1.18)
    write_route(path, [bottom] + [top, wing, bottom] * rounds, "Triangle", "M")


def simulated_reaches(binary, check, work):
    route = os.path.join(work, "triangle.gpx")
    triangle(route)
    reports, files, logs = {}, {}, {}
    for name, errors in (("true", []), ("reach", ["--upwash-error", "0,4,0"])):
        logs[name], files[name], reports[name] = sail_and_learn(
            binary, route, work, "triangle-" + name,
            ["--duration", "80000", "--gust", "0", "--shift", "0", "--racing", "--wind-speed", "12", *errors])
    true, reach = reports["true"], reports["reach"]
    value = lambda report, key: report.get(key, {}).get("value", 0)  # noqa: E731
    moved = value(reach, "upwash_reach") - value(true, "upwash_reach")
    check(abs(moved + 4) <= 1 and reach.get("upwash_reach", {}).get("applied") is True,
          f"a triangle race whose masthead unit reads 4° wide reaching: the reaching upwash moves by {moved:+.2f}° "
          f"(-4 ± 1), from {reach.get('upwash_reach', {}).get('count')} gybes, sure "
          f"({reach.get('upwash_reach', {}).get('status')})")
    upwind = value(reach, "upwash_upwind") - value(true, "upwash_upwind")
    offset = value(reach, "awa_offset") - value(true, "awa_offset")
    check(abs(upwind) <= 0.5 and abs(offset) <= 0.5,
          f"the same race: the upwind upwash moves by {upwind:+.2f}° and the offset by {offset:+.2f}° (0 ± 0.5: the "
          f"error is only on the reaches)")
    gybes = [m for m in reach.get("manoeuvres", []) if m["kind"] == "gybe"]
    angles = [abs(m[k]) for m in gybes for k in ("awa_before", "awa_after")]
    down = reach.get("upwash_downwind", {}).get("status")
    check(len(gybes) >= 15 and all(60 <= a <= 100 for a in angles) and down == "not enough data",
          f"every gybe between two reaches ({len(gybes)} gybes, their windows {min(angles, default=0):.0f}° to "
          f"{max(angles, default=0):.0f}° apparent): the downwind upwash is '{down}' (not enough data, never a "
          f"sensor fault)")
    none = os.path.join(work, "triangle-none.toml")
    with open(none, "w") as f:
        f.write("[sailing]\n")

    def apart(calibrations):
        """Each second's wind direction apart between the two races' replays, sorted (degrees)."""
        a = replay_directions(binary, logs["true"], calibrations[0])
        b = replay_directions(binary, logs["reach"], calibrations[1])
        return sorted(abs((b[t] - a[t] + 180) % 360 - 180) for t in a if t in b)

    raw, calibrated = apart((none, none)), apart((files["true"], files["reach"]))
    tenth = lambda d: d[int(len(d) * 0.9)] if d else 99  # noqa: E731
    check(len(calibrated) > 10000 and tenth(calibrated) <= 0.5 and tenth(raw) >= 2,
          f"the calibrated replay of the race read wide reaching gives the calibrated true race's wind direction: 90 % "
          f"of {len(calibrated)} seconds within {tenth(calibrated):.2f}° (0.5° at most), where uncalibrated 10 % are "
          f"{tenth(raw):.2f}° apart or more (the reaches)")
