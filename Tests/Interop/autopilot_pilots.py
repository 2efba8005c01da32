"""The pilots beside the Raymarine one (autopilot_desk.Desk): susteranna's B&G/Simrad NAC and a standard pilot on
the same bus, the default pilot; the pilot's own alarms (standby by itself, off-line); an NMEA 0183 pilot on an
output."""
import math
import os
import time

from autopilot_bus import other_pilots
from autopilot_desk import API, DEVICE
from support import wait_for


def other_pilots_phase(d):
    heard = wait_for(lambda: d.status().get("state") == "standby", 20)
    d.checks(heard, "on the Yacht Devices gateway: the pilot behind it heard, in standby", d.status())
    susteranna = os.path.join(os.path.dirname(d.recording), "susteranna2020.raw")
    if os.path.exists(susteranna):
        with d.bus.lock:
            d.bus.others = other_pilots(susteranna)
        listed = wait_for(lambda: {"simrad-16", "nmea2000-40"} <= set(d.request("GET", API)[1]), 10)
        code, simrad = d.request("GET", API + "/simrad-16")
        d.checks(listed and simrad.get("state") == "standby", "susteranna's B&G/Simrad NAC (its 65305) and a pilot known "
               "only by its 127237 listed beside it; the NAC in standby as its reports say", simrad)
        _, first = d.request("GET", API + "/_providers/_default")
        code, _ = d.request("POST", API + "/_providers/_default/raymarine-204")
        _, chosen = d.request("GET", API + "/_providers/_default")
        _, listing = d.request("GET", API)
        d.checks(first == {"id": "simrad-16"} and code == 200 and chosen == {"id": "raymarine-204"}
               and listing.get("raymarine-204", {}).get("isDefault") is True,
               "the default pilot: the lowest address first (simrad-16), then the one the crew names "
               "(POST _providers/_default/raymarine-204)", (first, chosen))
        with d.bus.lock:
            before = len(d.bus.sent)
        code, _ = d.request("POST", API + "/simrad-16/engage")
        code2, _ = d.request("PUT", API + "/simrad-16/target/adjust", {"value": -10, "units": "deg"})
        code3, _ = d.request("PUT", API + "/nmea2000-40/mode", {"value": "route"})
        code4, _ = d.request("PUT", API + "/nmea2000-40/mode", {"value": "wind"})
        wait_for(lambda: len(d.bus.sent) - before >= 3, 3)
        with d.bus.lock:
            new = [m for _, m in d.bus.sent[before:]]
        fields = [{f.id: f.value for f in m.fields} for m in new]
        simnet = [f for m, f in zip(new, fields) if m.PGN == 130850]
        standard = [d.pairs(m) for m in new if m.PGN == 126208 and m.destination == 40]
        d.checks(code == 200 and code2 == 200 and len(simnet) == 2 and simnet[0].get("event") == "Heading mode"
               and simnet[0].get("address") == 16 and simnet[1].get("event") == "Change course"
               and simnet[1].get("direction") == "Port" and abs(simnet[1].get("angle", 0) - math.radians(10)) < 0.001,
               "the NAC engaged and turned 10° to port: 130850 AP commands (heading mode; change of course) to address "
               "16, as nmea2000 reads them", simnet)
        d.checks(code3 == 200 and code4 == 400 and len(standard) == 1 and standard[0][0] == 127237
               and str(standard[0][1][5].value) == "Track Control",
               "the standard pilot: route mode as 126208 into 127237's steering mode (track control); wind mode "
               "refused 400 (not one of its modes), nothing sent", standard)
        with d.bus.lock:
            d.bus.others = []


def alarm_phase(d):
    # The pilot drops to standby on its own (its standby key, a clutch overload): the autopilot alarm, as a Signal K
    # notification; engaged again it clears; then it falls silent while steering: off-line, the alarm again.
    def alarm():
        notification = d.value("notifications.steering.autopilot.state")
        return notification if isinstance(notification, dict) else {}

    d.command("POST", "engage", expect=1)
    wait_for(lambda: d.status().get("state") == "auto", 5)
    # The disengage asked above is 5 s behind (a standby asked for through Telltale is no alarm).
    time.sleep(5)
    with d.bus.lock:
        d.bus.mode = 0
    raised = wait_for(lambda: alarm().get("state") == "alarm", 10)
    d.checks(raised and "standby" in alarm().get("message", "") and "sound" in alarm().get("method", []),
           "the pilot dropping to standby by itself raises notifications.steering.autopilot.state (alarm, sound)",
           alarm())
    d.command("POST", "engage", expect=1)
    cleared = wait_for(lambda: alarm().get("state") == "normal", 10)
    d.checks(cleared, "engaged again, the alarm clears", alarm())
    wait_for(lambda: d.status().get("state") == "auto", 5)
    time.sleep(1.5)
    # The pilot falls silent while steering: off-line, the alarm, and a command is not sent (no retries either).
    d.bus.silent = True
    offline = wait_for(lambda: d.status().get("state") == "off-line", 20, step=0.5)
    with d.bus.lock:
        before = len(d.bus.sent)
    code, answer = d.request("POST", DEVICE + "/engage")
    time.sleep(2)
    with d.bus.lock:
        after = len(d.bus.sent)
    d.checks(offline and code == 409 and after == before, "the pilot silent: off-line, a command 409 and nothing sent "
           "(no retry)", (offline, code, answer))
    d.checks(alarm().get("state") == "alarm" and "off-line" in alarm().get("message", ""),
           "off-line while steering: the alarm says so", alarm())


def nmea0183_phase(d):
    # An NMEA 0183 pilot on the output `tiller`: listed with what it can be asked, the rest refused with why.
    import pynmea2
    code, devices = d.request("GET", API)
    code, tiller_status = d.request("GET", API + "/nmea0183-tiller")
    actions = [a.get("id") for a in (tiller_status.get("options", {}).get("actions", [])
                                     if isinstance(tiller_status, dict) else [])]
    d.checks("nmea0183-tiller" in devices and actions == ["courseNextPoint"]
           and tiller_status.get("options", {}).get("modes") == ["route", "wind"] and tiller_status.get("state") is None,
           "the 0183 pilot on the output `tiller` is listed: modes route and wind, one action (the next point), its "
           "state unknown (it says nothing back)", tiller_status)

    def destination():
        for text in reversed(d.tiller.texts()[-40:]):
            if "APB," in text:
                try:
                    return pynmea2.parse(text).dest_waypoint_id
                except pynmea2.ParseError:
                    continue
        return None

    wait_for(lambda: destination() is not None, 10)
    first = destination()
    with d.bus.lock:
        before = len(d.bus.sent)
    code, answer = d.request("POST", API + "/nmea0183-tiller/engage")
    d.checks(code == 409 and "own control" in str(answer) and len(d.bus.sent) == before,
           "engaging it is refused 409, saying why (it is engaged at its own control); nothing sent", answer)
    code, answer = d.request("POST", API + "/nmea0183-tiller/courseNextPoint")
    moved = wait_for(lambda: destination() not in (None, first), 10)
    d.checks(code == 200 and moved, f"the next point: the APB it is sent (pynmea2) goes from {first} to {destination()}",
           (code, answer))
