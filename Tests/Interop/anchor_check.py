"""The anchor watch on a running gateway, as a crew at anchor meets it, through a kill and a restart.

    anchor_check.py BINARY

`telltale run` with a UDP input (this script plays the GPS, compass and depth sounder on it), a TCP output carrying
the alarm sentences, the Signal K server, `[anchor] hold = 8` and a state folder. Then:
1. `telltale anchor drop` with the boat lying at the anchorage: Signal K publishes navigation.anchor.position (the
   bow's place), maxRadius (the configured 30 m) and currentRadius; anchor.toml is written in the state folder.
2. A PUT of navigation.anchor.rodeLength (as WilhelmSK sends it) widens the circle from the chain and the depth.
3. One fix 100 m away (a GPS jump): no alarm on the output or in Signal K.
4. The gateway is killed with SIGKILL and started again: the watch is back (same anchor, same circle) and the log
   says it was restored.
5. The boat drags out of the circle: ALR 171 on the output within the hold time (plus a fix or two), the Signal K
   notification an emergency; the swing track since the drop served at vessels/self/track?since=anchor.
6. `telltale anchor raise`: the alarm cleared, the paths withdrawn, anchor.toml says no anchor.
Prints ok/FAIL per check and `anchor-check: N passed, M failed`.
"""
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import Checks, free_port, Gateway, nmea_position, OutputReader, sentence, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402

binary = sys.argv[1]
work = tempfile.mkdtemp()
check = Checks("anchor-check")
web, nmea, udp = free_port(), free_port(), free_port(socket.SOCK_DGRAM)
state = os.path.join(work, "state")
os.mkdir(state)
config = f"""status_line = false
state_file = "{state}/state.toml"
[[input]]
name = "bus"
url = "udp://127.0.0.1:{udp}"
[[output]]
url = "tcp://127.0.0.1:{nmea}"
kinds = ["alarm", "alarm-text"]
pass_through = false
[boat]
bow_offset = 0
bow_height = 1
[anchor]
radius = 30
hold = 8
margin = 5
[web]
listen = "127.0.0.1:{web}"
"""
ANCHORAGE = (50.77, -1.30)
EARTH = 6371008.8
boat = {"metres": 0.0, "bearing": 180.0, "jump": False}


def offset(metres, bearing):
    lat, lon = ANCHORAGE
    north = metres * math.cos(math.radians(bearing))
    east = metres * math.sin(math.radians(bearing))
    return (lat + math.degrees(north / EARTH), lon + math.degrees(east / (EARTH * math.cos(math.radians(lat)))))




sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
running = [True]


def instruments():
    while running[0]:
        metres = boat["metres"] + (100 if boat["jump"] else 0)
        boat["jump"] = False
        lat, lon = offset(metres, boat["bearing"])
        stamp = time.strftime("%H%M%S", time.gmtime())
        for body in (
            f"GPRMC,{stamp}.00,A,{nmea_position(lat, 'NS')},{nmea_position(lon, 'EW')},0.2,180.0,251126,,,A",
            "HEHDT,0.0,T",
            "SDDPT,5.0,0.0",
        ):
            try:
                sender.sendto(sentence(body), ("127.0.0.1", udp))
            except OSError:
                pass
        time.sleep(1)


threading.Thread(target=instruments, daemon=True).start()


def api(path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/{path}", timeout=3) as r:
            return json.loads(r.read())
    except Exception:
        return None


def put(path, value):
    return HTTP(web, timeout=5).put(path, value)


def telltale(*words):
    result = subprocess.run([binary, *words, "--port", str(web)], capture_output=True, text=True, timeout=10)
    return result.returncode, result.stdout + result.stderr


def value(path):
    node = api(path.replace(".", "/"))
    return node.get("value") if isinstance(node, dict) else None


def distance(a, b):
    dlat = math.radians(b[0] - a[0])
    dlon = math.radians(b[1] - a[1]) * math.cos(math.radians(a[0]))
    return EARTH * math.hypot(dlat, dlon)


def alr(output, state):
    return [line for line in output.texts() if "ALR," in line and f",171,{state}," in line]


gateway = Gateway(binary, config, work=work).start(wait=[nmea, web])
output = OutputReader(nmea, reconnect=True)
try:
    check(wait_for(lambda: value("navigation.position") is not None, 10), "the GPS is heard")
    code, said = telltale("anchor", "drop")
    check(code == 0 and "anchor down" in said, "telltale anchor drop", said.strip())
    check(wait_for(lambda: value("navigation.anchor.maxRadius") == 30, 5), "maxRadius is the configured 30 m",
          str(value("navigation.anchor.maxRadius")))
    position = value("navigation.anchor.position") or {}
    check(distance((position.get("latitude", 0), position.get("longitude", 0)), ANCHORAGE) < 2,
          "navigation.anchor.position is where the bow was", str(position))
    check(wait_for(lambda: (value("navigation.anchor.currentRadius") if value("navigation.anchor.currentRadius") is not None else 99) < 3, 5), "currentRadius near 0 m",
          str(value("navigation.anchor.currentRadius")))
    kept = os.path.join(state, "anchor.toml")
    check(wait_for(lambda: os.path.exists(kept) and "[anchor]" in open(kept).read(), 5), "anchor.toml written")

    status, answer = put("navigation/anchor/rodeLength", 30)
    reach = math.sqrt(30 ** 2 - 6 ** 2) + 0 + 5
    check(status == 200 and wait_for(lambda: abs((value("navigation.anchor.maxRadius") or 0) - reach) < 0.2, 5),
          f"PUT rodeLength 30 at 5 m: circle {reach:.1f} m", f"{status} {answer} {value('navigation.anchor.maxRadius')}")
    status, _ = put("navigation/anchor/maxRadius", 30)
    check(status == 200 and wait_for(lambda: value("navigation.anchor.maxRadius") == 30, 5), "PUT maxRadius 30")

    boat["metres"] = 15
    time.sleep(3)
    boat["jump"] = True
    time.sleep(12)
    check(not alr(output, "A"), "a GPS jump of 100 m for one fix raises no alarm", str(output.texts()[-3:]))
    note = api("notifications/navigation/anchor") or {}
    check(note.get("value", {}).get("state") in (None, "normal"), "nor a Signal K notification", str(note))

    # Killed as a power cut would: no chance to save anything more.
    gateway.process.send_signal(signal.SIGKILL)
    gateway.process.wait(5)
    gateway = Gateway(binary, config, work=work).start(wait=[nmea, web])
    check(wait_for(lambda: value("navigation.anchor.maxRadius") == 30, 10), "after SIGKILL and a restart: armed again")
    again = value("navigation.anchor.position") or {}
    check(again == position, "the same anchor position", f"{again} {position}")
    check("anchor watch restored" in gateway.log(), "the log says it was restored")

    # The boat drags south at 1 m/s, from 15 m: out of the 30 m circle after about 15 s.
    started = time.time()
    crossed = [None]

    def drag():
        while running[0] and boat["metres"] < 120:
            boat["metres"] += 0.5
            if boat["metres"] > 30 and crossed[0] is None:
                crossed[0] = time.time()
            time.sleep(0.5)

    threading.Thread(target=drag, daemon=True).start()
    check(wait_for(lambda: alr(output, "A"), 60), "dragging: ALR 171 raised on the output", str(output.texts()[-3:]))
    raised = time.time()
    late = raised - (crossed[0] or started)
    check(crossed[0] is not None and 8 - 1 <= late <= 8 + 4, f"raised {late:.1f} s after leaving the circle (hold 8 s)")
    check(wait_for(lambda: (api("notifications/navigation/anchor") or {}).get("value", {}).get("state") == "emergency", 5),
          "the Signal K notification is an emergency")
    with urllib.request.urlopen(f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/track?since=anchor", timeout=3) as r:
        swing = json.loads(r.read())
    points = [p for line in swing.get("coordinates", []) for p in line]
    far = distance((points[-1][1], points[-1][0]), ANCHORAGE) if points else 0
    check(swing.get("type") == "MultiLineString" and len(points) >= 3 and far > 30,
          f"the swing track since the restart: {len(points)} points, the last {far:.0f} m from the anchor")

    code, said = telltale("anchor", "raise")
    check(code == 0, "telltale anchor raise", said.strip())
    check(wait_for(lambda: alr(output, "V"), 5), "the alarm cleared on the output")
    check(wait_for(lambda: value("navigation.anchor.maxRadius") is None, 5), "the anchor's paths withdrawn")
    check(wait_for(lambda: "[anchor]" not in open(kept).read(), 5), "anchor.toml says no anchor")
finally:
    running[0] = False
    output.stop()
    gateway.stop()
check.finish()
