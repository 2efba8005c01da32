"""The pilots on the emulated bus (image_check.py, stage 3b): the recorded EV-1 in the Pi's Autopilot API, commanded
from the laptop's approved token; susteranna's Simrad NAC and a 127237-only pilot played by a second canplayer;


every frame read back on can1 and decoded by nmea2000."""
import json
import math
import os
import sys
import time
from support import wait_for
from image_support import http
from image_bus import bus_messages
from nmea2000.decoder import NMEA2000Decoder


def recorded_pilots(ROOT, SHARED, check, pi, token):
    """The recorded pilots in the Pi's Autopilot API, commanded, their frames read back with candump."""
    # The recorded EV-1 pilot on the emulated bus: in the Autopilot API on the Pi, and commanded from this laptop (its
    # approved token): the frames read back with candump on can1 and decoded by nmea2000.
    AUTOPILOT = "/signalk/v2/api/vessels/self/autopilots"
    if os.path.exists(SHARED):
        heard = wait_for(lambda: "raymarine-204" in http(pi, AUTOPILOT)[1], 30, step=1)
        status, body = http(pi, AUTOPILOT + "/raymarine-204")
        pilot = json.loads(body) if status == 200 else {}
        check(heard and pilot.get("state") == "standby", "the recorded EV-1 pilot (address 204) in the Pi's Autopilot API, "
              "in standby as the recording says", body[:300])
        pi.ssh("systemd-run --quiet --unit=pilotdump sh -c 'timeout 8 candump -L can1 > /run/pilot.log'", timeout=30)
        time.sleep(1)
        refused = http(pi, AUTOPILOT + "/raymarine-204/engage", "POST", b"")
        commanded = [http(pi, AUTOPILOT + "/raymarine-204/engage", "POST", b"", token=token),
                     http(pi, AUTOPILOT + "/raymarine-204/target/adjust", "PUT",
                          json.dumps({"value": -12, "units": "deg"}).encode(), token=token)]
        time.sleep(8)
        log = pi.out("cat /run/pilot.log")
        frames = bus_messages(log)
        modes = [f for pgn, source, f in frames if pgn == 126208 and f.get("pgn") == 65379]
        mode_values = [[(p["parameter"].raw_value, p["value"].raw_value) for p in f.get("##list##", [])] for f in modes]
        keys = [f.get("key") for pgn, _, f in frames if pgn == 126720 and f.get("seatalk1Command") in (134, "Keystroke")]
        check(refused[0] == 401 and all(code == 200 for code, _ in commanded) and len(modes) == 1
              and (4, 64) in mode_values[0] and keys == [6, 5, 5],
              "from an unapproved device refused (401); engaged and turned 12° to port by the approved one: on the "
              "emulated bus a 126208 setting the pilot's 65379 to auto and the p70's keys −10, −1, −1 (126720), as nmea2000 "
              "reads them", f"{refused[0]} {commanded} {mode_values} {keys}")
        # Two more pilots on the same emulated bus: susteranna2020's B&G/Simrad NAC (its 65305 reports, its 127237) and a
        # pilot known only by that 127237, played by a second canplayer; commanded, their frames read by nmea2000.
        susteranna = os.path.join(os.path.dirname(SHARED), "susteranna2020.raw")
        if os.path.exists(susteranna):
            sys.path.insert(0, os.path.join(ROOT, "Tests", "Interop"))
            from autopilot_bus import other_pilots  # noqa: E402
            others = other_pilots(susteranna)
            pi.put("/run/pilots.log", "".join(f"({index * 0.5 / len(others):.6f}) can1 {ident:08X}#{data.hex().upper()}\n"
                                              for index, (ident, data) in enumerate(others)).encode())
            pi.ssh("systemd-run --quiet --unit=pilots canplayer -I /run/pilots.log -l i", timeout=30)
            listed = wait_for(lambda: all(name in http(pi, AUTOPILOT)[1] for name in ("simrad-16", "nmea2000-40")), 30,
                              step=1)
            pi.ssh("systemd-run --quiet --unit=pilotdump2 sh -c 'timeout 8 candump -L can1 > /run/pilots-sent.log'",
                   timeout=30)
            time.sleep(1)
            commanded = [http(pi, AUTOPILOT + "/simrad-16/engage", "POST", b"", token=token),
                         http(pi, AUTOPILOT + "/simrad-16/target/adjust", "PUT",
                              json.dumps({"value": -10, "units": "deg"}).encode(), token=token),
                         http(pi, AUTOPILOT + "/nmea2000-40/mode", "PUT", json.dumps({"value": "route"}).encode(),
                              token=token)]
            time.sleep(8)
            decoder = NMEA2000Decoder()
            simnet, standard = [], []
            for line in pi.out("cat /run/pilots-sent.log").splitlines():
                try:
                    message = decoder.decode(line.strip())
                except Exception:
                    continue
                if message is None or message.source in (16, 40, 204):
                    continue
                fields = {f.id: f.value for f in message.fields}
                if message.PGN == 130850:
                    simnet.append(fields)
                elif message.PGN == 126208 and message.destination == 40 and str(fields.get("pgn")) == "127237":
                    standard.append({str(p["parameter"].value): str(p["value"].value) for p in fields.get("##list##", [])})
            check(listed and all(code == 200 for code, _ in commanded) and len(simnet) == 2
                  and simnet[0].get("event") == "Heading mode" and simnet[0].get("address") == 16
                  and simnet[1].get("event") == "Change course" and simnet[1].get("direction") == "Port"
                  and abs(simnet[1].get("angle", 0) - math.radians(10)) < 0.001
                  and len(standard) == 1 and "Track Control" in standard[0].values(),
                  "susteranna's Simrad NAC and a 127237-only pilot played onto the emulated bus are listed; the NAC engaged "
                  "and turned 10° to port as 130850 AP commands to address 16, the other put in route mode by a 126208 "
                  "into 127237 (track control), as nmea2000 reads them on can1",
                  f"{listed} {[c for c, _ in commanded]} {simnet} {standard}")
            pi.ssh("systemctl stop pilots", timeout=30)
        else:
            print("image-check: susteranna2020.raw is absent from ../shared/fixtures/n2k: the Simnet and 127237 pilots "
                  "on the emulated bus are skipped")
