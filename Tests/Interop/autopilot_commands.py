"""The Autopilot API's commands to a Raymarine pilot on the bus (autopilot_desk.Desk): engage, a target, an
adjustment as the p70's keys, nonsense refused, a tack onto the polar's beat angle with its countdown and calling it
off, wind mode and its datum, disengage."""
import math
import os
import time

from autopilot_desk import DEMO, PILOT
from support import wait_for


def polar_beat(path, tws_knots):
    """The polar's beat angle at this true wind speed, worked out here: the angle of the best speed towards the
    wind, the table read with straight lines between its rows and columns (0.1° steps)."""
    rows = [line.strip().split(";") for line in open(path) if line.strip()]
    speeds = [float(v) for v in rows[0][1:]]
    table = [(float(r[0]), [float(v) for v in r[1:]]) for r in rows[1:]]

    def along(xs, ys, x):
        if x <= xs[0]:
            return ys[0]
        for i in range(1, len(xs)):
            if x <= xs[i]:
                f = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
                return ys[i - 1] + f * (ys[i] - ys[i - 1])
        return ys[-1]

    def speed(twa):
        angles = [a for a, _ in table]
        column = [along(speeds, values, tws_knots) for _, values in table]
        return along(angles, column, twa)

    best, angle = -1, None
    for tenth in range(200, 900):
        twa = tenth / 10
        vmg = speed(twa) * math.cos(math.radians(twa))
        if vmg > best:
            best, angle = vmg, twa
    return angle



def commands_phase(d):
    code, features = d.request("GET", "/signalk/v2/features")
    d.checks(code == 200 and "autopilot" in features.get("apis", []), "the features list the Autopilot API", features)
    # The gateway's own address claimed before anything is sent.
    wait_for(lambda: any(pgn == 60928 for _, pgn, _, _ in d.bus.frames_in), 5)

    code, answer, sent = d.command("POST", "engage", source="127.0.0.5")
    d.checks(code == 401 and not sent, "an unapproved device (127.0.0.5): 401 and nothing on the bus", (code, answer))

    code, answer, sent = d.command("POST", "engage", expect=1)
    ok = code == 200 and len(sent) == 1 and sent[0].PGN == 126208 and sent[0].destination == PILOT
    target, fields = d.pairs(sent[0]) if ok else (None, {})
    d.checks(ok and target == 65379 and str(fields.get(4).value) == "Auto, compass commanded",
           "engage: nmea2000 reads a 126208 command to the pilot setting 65379's mode to auto (compass)",
           (code, answer, [str(m) for m in sent]))
    confirmed = wait_for(lambda: d.status().get("state") == "auto" and d.status().get("mode") == "compass", 5)
    d.checks(confirmed, "the pilot's own 65379 comes back: the API says auto, compass", d.status())

    code, answer, sent = d.command("PUT", "target", {"value": 100, "units": "deg"}, expect=1)
    ok = code == 200 and sent and sent[0].PGN == 126208
    target, fields = d.pairs(sent[0]) if ok else (None, {})
    d.checks(ok and target == 65360 and abs(float(fields[6].raw_value) - math.radians(100)) < 0.001,
           "target 100°: 65360's magnetic heading set to 1.7453 rad", (code, [str(m) for m in sent]))
    wait_for(lambda: abs((d.status().get("target") or 0) - math.radians(100)) < 0.001, 5)
    d.checks(abs((d.status().get("target") or 0) - math.radians(100)) < 0.001, "and the pilot's target comes back",
           d.status())

    code, answer, sent = d.command("PUT", "target/adjust", {"value": -12, "units": "deg"}, expect=3)
    keys = [str({f.id: f.value for f in m.fields}.get("key")) for m in sent if m.PGN == 126720]
    d.checks(code == 200 and keys == ["-10", "-1", "-1"], "adjust −12°: the p70's keys −10, −1, −1 (126720)",
           (code, keys))
    wait_for(lambda: abs((d.status().get("target") or 0) - math.radians(88)) < 0.001, 5)
    d.checks(abs((d.status().get("target") or 0) - math.radians(88)) < 0.001, "the pilot now holds 88°", d.status())

    bad = [("PUT", "target", {"value": "north"}), ("PUT", "target", {"value": 1000, "units": "deg"}),
           ("PUT", "target/adjust", {"value": 0}), ("PUT", "target/adjust", {"value": 3.0}),
           ("PUT", "mode", {"value": "banana"}), ("PUT", "state", {"value": "maybe"}),
           ("PUT", "dodge", {"value": 100, "units": "deg"}), ("POST", "tack/sideways", None)]
    answers = [d.command(m, a, b)[:2] for m, a, b in bad]
    with d.bus.lock:
        before = len(d.bus.sent)
    time.sleep(0.3)
    d.checks(all(c in (400, 404) for c, _ in answers) and [c for c, _ in answers].count(400) == 7
           and len(d.bus.sent) == before, "nonsense targets, modes and states: 400 (an unknown command 404), nothing "
           "sent", answers)



def tack_phase(d):
    """A tack onto the polar's beat angle for the true wind now, then one called off; the true wind angle."""
    # A tack onto the polar's beat angle for the true wind now.
    twa = d.value("environment.wind.angleTrueWater")
    # A tack turns the bow through the wind: to starboard with the wind on the starboard side.
    side = "starboard" if twa is not None and twa > 0 else "port"
    tws, twd, heading = (d.value("environment.wind.speedTrue"), d.value("environment.wind.directionTrue"),
                         d.value("navigation.headingTrue"))
    held = d.status().get("target")
    asked = time.monotonic()
    code, answer, sent = d.command("POST", "tack/" + side, expect=1, seconds=10)
    with d.bus.lock:
        first = next((t for t, m in d.bus.sent[-len(sent):]), None) if sent else None
    d.checks(first is not None and first - asked >= 4.5 and "tacking to " + side + " in 5 seconds" in d.gateway.log(),
           "said aloud first (\"tacking to " + side + " in 5 seconds\"), sent when the countdown ends "
           f"({(first or asked) - asked:.1f} s)", answer)
    if None in (twa, tws, twd, heading, held) or code != 200 or not sent:
        d.checks(False, "a tack on the demo voyage with the polar", (twa, tws, twd, heading, held, code, answer))
    else:
        target, fields = d.pairs(sent[0])
        commanded = float(fields[6].raw_value)
        change = math.degrees((commanded - held + math.pi) % (2 * math.pi) - math.pi)
        beat = polar_beat(os.path.join(DEMO, "polar.csv"), tws * 3600 / 1852)
        after = -beat if twa > 0 else beat
        expected = (math.degrees(twd) - after - math.degrees(heading) + 180) % 360 - 180
        d.checks(target == 65360 and abs(change - expected) < 2,
               f"tack to {side} (TWA {math.degrees(twa):.1f}°, TWS {tws * 3600 / 1852:.1f} kn): the heading held moves "
               f"{change:.1f}°, the polar's beat of {beat:.1f}° on the other tack says {expected:.1f}° (within 2°)",
               (change, expected, answer))
    # A tack called off: any other command to the pilot within the countdown.
    with d.bus.lock:
        before = len(d.bus.sent)
    code, answer, _ = d.command("POST", "tack/" + side)
    code2, _, keys = d.command("PUT", "target/adjust", {"value": 1, "units": "deg"}, expect=1)
    time.sleep(6)
    with d.bus.lock:
        later = [m for _, m in d.bus.sent[before:]]
    d.checks(code == 200 and code2 == 200 and [m.PGN for m in later] == [126720] and "tacking to " + side + " called off" in d.gateway.log(),
           "a tack called off by another command within its countdown: only that command's key goes out, said",
           ([m.PGN for m in later], code, answer, code2))
    wrong = "starboard" if side == "port" else "port"
    code, answer, sent = d.command("POST", "tack/" + wrong)
    d.checks(code == 409 and not sent, f"a tack to {wrong} with the wind on that side: 409, nothing sent", (code, answer))

    return twa


def wind_phase(d, twa):
    code, answer, sent = d.command("PUT", "mode", {"value": "wind"}, expect=1)
    target, fields = d.pairs(sent[0]) if sent else (None, {})
    d.checks(code == 200 and target == 65379 and str(fields[4].value) == "Vane, Wind Mode", "mode wind: 65379 256",
           (code, [str(m) for m in sent]))
    wait_for(lambda: d.status().get("mode") == "wind", 5)
    with d.bus.lock:
        before = len(d.bus.sent)
    time.sleep(2.5)
    with d.bus.lock:
        after = len(d.bus.sent)
    d.checks(after == before, f"on a reach (TWA {math.degrees(twa or 0):.0f}°) wind mode holds the angle the pilot has: "
           "no polar angle sent (close-hauled or running it would be)", after - before)
    code, answer, sent = d.command("PUT", "target", {"value": -35, "units": "deg"}, expect=1)
    target, fields = d.pairs(sent[0]) if sent else (None, {})
    d.checks(code == 200 and target == 65345 and abs(float(fields[4].raw_value) - math.radians(325)) < 0.001,
           "in wind mode the target is the wind datum (65345): −35° as 325°", (code, [str(m) for m in sent]))

    code, answer, sent = d.command("POST", "disengage", expect=1)
    target, fields = d.pairs(sent[0]) if sent else (None, {})
    d.checks(code == 200 and target == 65379 and str(fields[4].value) == "Standby", "disengage: 65379 standby",
           (code, [str(m) for m in sent]))
    wait_for(lambda: d.status().get("state") == "standby", 5)
    d.checks(d.status().get("state") == "standby" and d.status().get("engaged") is False, "and the pilot says standby",
           d.status())

