"""A route of three marks sailed to its end in route mode by the pilot on the bus (autopilot_bus.PilotBus)."""
import json
import math
import os
import socket
import tempfile
import time
import urllib.error
import urllib.request

from autopilot_bus import PILOT, PilotBus
from support import Gateway, free_port


def destination(lat, lon, bearing, metres):
    """The point `metres` from (lat, lon) on `bearing` (degrees), on a sphere: plenty for a few hundred metres."""
    R = 6371008.8
    p1, l1, b, d = math.radians(lat), math.radians(lon), math.radians(bearing), metres / R
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    return math.degrees(p2), math.degrees(l2)


def distance(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(b[1] - a[1]) / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


def sentence(body):
    checksum = 0
    for c in body.encode():
        checksum ^= c
    return f"${body}*{checksum:02X}\r\n".encode()


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
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    boat = {"lat": start[0], "lon": start[1], "heading": 0.0, "speed": 0.0}
    track = []

    def sail(seconds, engaged_speed=15.0):
        """The boat for `seconds`, five fixes a second: the pilot steering it in route mode to 129284's bearing."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with bus.lock:
                mode, bearing = bus.mode, bus.bearing
            if mode == 384 and bearing is not None:
                boat["speed"] = engaged_speed
                turn = (math.degrees(bearing) - boat["heading"] + 540) % 360 - 180
                boat["heading"] = (boat["heading"] + max(-2, min(2, turn))) % 360
                with bus.lock:
                    bus.heading = math.radians(boat["heading"])
            boat["lat"], boat["lon"] = destination(boat["lat"], boat["lon"], boat["heading"], boat["speed"] * 0.2)
            track.append((boat["lat"], boat["lon"]))
            now = time.gmtime()
            stamp = time.strftime("%H%M%S", now)
            lat, lon = abs(boat["lat"]), abs(boat["lon"])
            fix = (f"GPRMC,{stamp}.00,A,{int(lat):02d}{(lat % 1) * 60:07.4f},{'N' if boat['lat'] >= 0 else 'S'},"
                   f"{int(lon):03d}{(lon % 1) * 60:07.4f},{'E' if boat['lon'] >= 0 else 'W'},"
                   f"{boat['speed'] * 3600 / 1852:.1f},{boat['heading']:.1f},{time.strftime('%d%m%y', now)},,,A")
            for body in (fix, f"HEHDT,{boat['heading']:.1f},T"):
                sender.sendto(sentence(body), ("127.0.0.1", udp))
            time.sleep(0.2)

    API = f"/signalk/v2/api/vessels/self/autopilots/raymarine-{PILOT}"
    try:
        sail(4)
        request = urllib.request.Request(f"http://127.0.0.1:{web}{API}/courseCurrentPoint", data=b"", method="POST")
        try:
            code = urllib.request.urlopen(request, timeout=5).status
        except urllib.error.HTTPError as error:
            code = error.code
        sail(1)
        checks(code == 200 and bus.mode == 384, "courseCurrentPoint: the pilot put in route (track) mode, 65379 384 "
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
        closest = [min(distance(p, (lat, lon)) for p in track) for _, lat, lon in marks]
        checks(legs == [1, 2, 3] and "M3" in arrived(web) and all(d < 100 for d in closest),
               f"the three marks sailed in order in route mode, the legs moved on by the route follower's arrival "
               f"circle (points {legs}, {arrived(web)!r}): the boat within {', '.join(f'{d:.0f} m' for d in closest)} of "
               "them (circle 93 m)", (legs, closest))
        point = (course(web).get("activeRoute") or {}).get("pointIndex")
        checks(point == 3 and bus.mode == 384, f"the course's active route at its last point (index {point}), the pilot "
               "in route mode to the end", course(web))
    finally:
        bus.stopped = True
        gateway.stop()

