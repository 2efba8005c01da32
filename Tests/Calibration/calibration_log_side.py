"""The calibration check's log-by-tack part (calibration_check.py): a paddle wheel that reads more on one tack.

`telltale simulate` sails the zig-zag of 12 beats and 12 runs (calibration_simulated.zigzag) twice in a steady 12 kn:
once with true instruments, once with the log reading 4 % more heeled to starboard (port tack) and 4 % less heeled
to port, all of it from 10° of heel (`--log-side-error 0.04`: the simulator's own heel, not Telltale's idea of the
side). The learnt side term must move by about −0.04 (port × (1 + s), starboard × (1 − s)) and be sure, the common
factor must not move; and the current the calibrated replay of the altered voyage computes (Signal K's
environment.current, second by second) must be the calibrated true voyage's, where uncalibrated it jumps at every
tack."""

import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calibration_simulated import sail_and_learn, zigzag  # noqa: E402


def currents(binary, log, calibration, work, name):
    """The replay's current (m/s, north and east) by the second of its timestamp."""
    deltas = os.path.join(work, name + ".jsonl")
    subprocess.run([binary, "replay", "--fast", "--computed-only", "--calibration", calibration, "--signalk", deltas,
                    log], capture_output=True, timeout=600, check=True)
    values = {}
    with open(deltas) as f:
        for line in f:
            if "environment.current" not in line:
                continue
            for update in json.loads(line).get("updates", []):
                second = update.get("timestamp", "")[:19]
                for value in update.get("values", []):
                    if value.get("path") in ("environment.current.setTrue", "environment.current.drift"):
                        values.setdefault(second, {})[value["path"].split(".")[-1]] = value.get("value")
    return {t: (v["drift"] * math.cos(v["setTrue"]), v["drift"] * math.sin(v["setTrue"]))
            for t, v in values.items() if isinstance(v.get("drift"), (int, float))
            and isinstance(v.get("setTrue"), (int, float))}


def simulated_log_side(binary, check, work):
    route = os.path.join(work, "zigzag-side.gpx")
    zigzag(route)
    reports, files, logs = {}, {}, {}
    for name, errors in (("true", []), ("side", ["--log-side-error", "0.04"])):
        logs[name], files[name], reports[name] = sail_and_learn(
            binary, route, work, "zz-side-" + name, ["--duration", "14400", "--wind-speed", "12", *errors])
    true, side = reports["true"], reports["side"]
    value = lambda report, key, identity: report.get(key, {}).get("value", identity)  # noqa: E731
    moved = value(side, "speed_side", 0) - value(true, "speed_side", 0)
    factor = value(side, "speed_factor", 1) / max(value(true, "speed_factor", 1), 1e-9)
    check(abs(moved + 0.04) <= 0.01 and side.get("speed_side", {}).get("applied") is True
          and abs(factor - 1) <= 0.01,
          f"a log reading 4 % more on port tack and 4 % less on starboard: the side term moves by {moved:+.4f} "
          f"(−0.04 ± 0.01), from {side.get('speed_side', {}).get('count')} manoeuvres, sure; the common factor by "
          f"× {factor:.4f} (1 ± 0.01)")
    none = os.path.join(work, "zz-side-none.toml")
    with open(none, "w") as f:
        f.write("[sailing]\n")

    def apart(calibrations, label):
        """Each second's current apart between the two voyages' replays (knots), sorted."""
        a = currents(binary, logs["true"], calibrations[0], work, "true-" + label)
        b = currents(binary, logs["side"], calibrations[1], work, "side-" + label)
        return sorted(math.hypot(b[t][0] - a[t][0], b[t][1] - a[t][1]) / 0.514444 for t in a if t in b)

    raw, calibrated = apart((none, none), "raw"), apart((files["true"], files["side"]), "calibrated")
    tenth = lambda d: d[int(len(d) * 0.9)] if d else 99  # noqa: E731
    check(len(calibrated) > 3000 and tenth(calibrated) <= 0.1 and tenth(raw) >= 0.2,
          f"the calibrated replay of the voyage whose log reads by tack computes the calibrated true voyage's current: "
          f"90 % of {len(calibrated)} seconds within {tenth(calibrated):.3f} kn (0.1 at most), where uncalibrated 10 % "
          f"are {tenth(raw):.3f} kn apart or more")
