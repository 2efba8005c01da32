"""A route of three marks sailed to its end in route mode by the pilot on the bus (autopilot_bus.PilotBus)."""
import json
import os
import tempfile
import time
import urllib.error
import urllib.request

from autopilot_bus import PILOT, PilotBus
from piloted_boat import ROUTE_MODE, PilotedBoat, destination
from support import Gateway, free_port


def course(web):
    """The Course API's answer (the active route and its point), or {}."""
    try:
        with urllib.request.urlopen(
                f"http://127.0.0.1:{web}/signalk/v2/api/vessels/self/navigation/course", timeout=5) as response:
            return json.loads(response.read())
    except (OSError, ValueError):
        return {}

def arrived(web):
    """The arrival circle's notification message, or ""."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/notifications/"
                                    "navigation/course/arrivalCircleEntered", timeout=5) as response:
            return (json.loads(response.read()).get("value") or {}).get("message", "")
    except (OSError, ValueError):
        return ""


def write_route(path, start, marks):
    """The route as GPX: the start, then each (name, lat, lon)."""
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="autopilot-check" '
                'xmlns="http://www.topografix.com/GPX/1/1"><rte><name>Three marks</name>'
                f'<rtept lat="{start[0]:.6f}" lon="{start[1]:.6f}"><name>START</name></rtept>'
                + "".join(f'<rtept lat="{lat:.6f}" lon="{lon:.6f}"><name>{name}</name></rtept>'
                          for name, lat, lon in marks) + "</rte></gpx>\n")
    return path


def route_voyage(binary, checks, recording):
    """A route of three marks sailed to its end in route mode: a boat simulated here (20 kn, turning at most 10° a
    second) steers where the pilot is told, the pilot (behind the Yacht Devices connection) steering, once engaged in
    route mode, to the bearing Telltale's 129284 gives it (read by nmea2000), as a pilot in track mode does. The
    boat's GPS fix and heading go to the gateway's UDP input; the route follower's arrival circle moves the legs on."""
    bus = PilotBus(recording)
    bus.start()
    web, udp = free_port(), free_port()
    work = tempfile.mkdtemp(prefix="telltale-autopilot-route-")
    start = (50.7800, -1.3000)
    marks = [("M1", *destination(*start, 90, 400)), ("M2", *destination(*destination(*start, 90, 400), 20, 400)),
             ("M3", *destination(*start, 330, 300))]
    route = write_route(os.path.join(work, "marks.gpx"), start, marks)
    gateway = Gateway(binary, f"""status_line = false
route = "{route}"

[[input]]
name = "boat"
url = "udp://127.0.0.1:{udp}"

[n2k]
bus = "ydraw+tcp://127.0.0.1:{bus.port}"

[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
""", work=work).start(wait=[web])
    boat = PilotedBoat(bus, udp, start)
    sail = boat.sail

    API = f"/signalk/v2/api/vessels/self/autopilots/raymarine-{PILOT}"
    try:
        sail(4)
        request = urllib.request.Request(f"http://127.0.0.1:{web}{API}/courseCurrentPoint", data=b"", method="POST")
        try:
            code = urllib.request.urlopen(request, timeout=5).status
        except urllib.error.HTTPError as error:
            code = error.code
        sail(1)
        checks(code == 200 and bus.mode == ROUTE_MODE, "courseCurrentPoint: the pilot put in route (track) mode, 65379 384 "
               "as nmea2000 reads it", (code, bus.mode))
        # 29 kn over some 1,300 m of legs and three turns: well under three minutes. The legs as the engine moves them
        # on (the Course API's active route), until it has arrived at the last mark.
        deadline = time.monotonic() + 180
        legs = []
        while time.monotonic() < deadline and "M3" not in arrived(web):
            sail(1)
            point = (course(web).get("activeRoute") or {}).get("pointIndex")
            if point is not None and (not legs or legs[-1] != point):
                legs.append(point)
        closest = [boat.closest((lat, lon)) for _, lat, lon in marks]
        checks(legs == [1, 2, 3] and "M3" in arrived(web) and all(d < 100 for d in closest),
               f"the three marks sailed in order in route mode, the legs moved on by the route follower's arrival "
               f"circle (points {legs}, {arrived(web)!r}): the boat within {', '.join(f'{d:.0f} m' for d in closest)} of "
               "them (circle 93 m)", (legs, closest))
        point = (course(web).get("activeRoute") or {}).get("pointIndex")
        checks(point == 3 and bus.mode == ROUTE_MODE, f"the course's active route at its last point (index {point}), the pilot "
               "in route mode to the end", course(web))
    finally:
        bus.stopped = True
        gateway.stop()

