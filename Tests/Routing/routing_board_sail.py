"""The routing check on board's sailing part (routing_board_check.py): a routed beat sailed to its end by the route
follower and the autopilot. Its own `telltale run` with the Brittany forecast, the polar and the base map, and a pilot
on its bus (Tests/Interop/autopilot_bus.PilotBus: the recorded EV-1/ACU200 bus of ../shared/fixtures, the pilot
answering what nmea2000 reads of the gateway's frames); a boat simulated here (piloted_boat.PilotedBoat) steers where
the pilot is told. A short beat into the south-westerly is planned through /telltale/v1/routing, kept as a route,
activated through the Course API, the pilot engaged in route mode (courseCurrentPoint): the boat then sails each tack
the router gave to the destination, the route follower moving the legs on."""
import json
import os
import shutil
import socket
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Interop"))
from support import ROOT, Gateway, free_port, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402

START = (47.50, -2.98)
GOAL = (47.48728, -2.99882)  # 2 km to windward (225°) of the start, in Quiberon bay
SPEED = 25.0  # m/s the simulated boat sails once engaged: 1.4 NM of beat in under two minutes


def sail_routed_route(check, binary, polar, basemap, gribs, t0):
    recording = os.path.join(ROOT, "..", "shared", "fixtures", "n2k", "candumpSample3.txt")
    if not os.path.exists(recording):
        print("routing-board-check: ../shared/fixtures/n2k is absent: the routed beat sailed by the pilot is skipped")
        return
    from autopilot_bus import PILOT, PilotBus
    from autopilot_route import arrived
    from piloted_boat import ROUTE_MODE, PilotedBoat, bearing

    bus = PilotBus(recording)
    bus.start()
    web, udp = free_port(), free_port(socket.SOCK_DGRAM)
    work = tempfile.mkdtemp(prefix="telltale-routing-sail-")
    os.makedirs(os.path.join(work, "gribs"))
    shutil.copy(os.path.join(gribs, "brittany.grb2"), os.path.join(work, "gribs"))
    began = time.monotonic()
    boat = PilotedBoat(bus, udp, START, clock=lambda: t0 + 2 * 3600 + time.monotonic() - began)
    gateway = Gateway(binary, f"""status_line = false
state_file = "{work}/state.toml"
polar = "{polar}"
[[input]]
name = "boat"
url = "udp://127.0.0.1:{udp}"
[n2k]
bus = "ydraw+tcp://127.0.0.1:{bus.port}"
[weather]
grib = "{work}/gribs"
[chart]
basemap = "{basemap}"
[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
""", work=work, name="routing-sail").start(wait=[web])
    http = HTTP(web, timeout=20)

    def answer(path, **options):
        status, body = http.text(path, **options)
        try:
            return status, json.loads(body or "{}")
        except ValueError:
            return status, {}

    def sail_until(predicate, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end and not predicate():
            boat.sail(0.6, SPEED)
        return predicate()

    try:
        ready = sail_until(lambda: answer("/telltale/v1/routing")[1].get("state") == "idle"
                           and "missing" not in answer("/telltale/v1/routing")[1], 60)
        status, _ = answer("/telltale/v1/routing", method="POST",
                           body=json.dumps({"to": {"latitude": GOAL[0], "longitude": GOAL[1]}}).encode())
        planned = sail_until(lambda: answer("/telltale/v1/routing")[1].get("state") in ("planned", "failed"), 60)
        routing = answer("/telltale/v1/routing")[1]
        points = [(w["lat"], w["lon"]) for w in (routing.get("plan") or {}).get("waypoints", [])]
        check(ready and status == 202 and planned and routing.get("state") == "planned" and len(points) >= 3,
              f"a beat planned on board to 2 km to windward: {len(points) - 2} tack(s) between start and destination",
              json.dumps(routing)[:300] + gateway.log()[-300:])
        href = routing.get("route", "")
        boat.heading = bearing(START, points[1])  # pointed along the first leg before the pilot is engaged
        status, _ = answer("/signalk/v2/api/vessels/self/navigation/course/activeRoute", method="PUT",
                           body=json.dumps({"href": href, "pointIndex": 1}).encode())
        # The engine's leg to the first turn, then the pilot told to follow it.
        sail_until(lambda: (answer("/signalk/v2/api/vessels/self/navigation/course")[1].get("nextPoint") or {})
                   .get("position"), 10)
        boat.sail(1, SPEED)
        engaged, said = answer(f"/signalk/v2/api/vessels/self/autopilots/raymarine-{PILOT}/courseCurrentPoint",
                            method="POST", body=b"")
        boat.sail(1, SPEED)
        check(status == 200 and engaged == 200 and bus.mode == ROUTE_MODE,
              f"the routed route activated ({href}) and the pilot engaged in route mode (65379 {bus.mode})",
              (status, engaged, said))
        legs = []

        def at_end():
            course = answer("/signalk/v2/api/vessels/self/navigation/course")[1]
            point = (course.get("activeRoute") or {}).get("pointIndex")
            if point is not None and (not legs or legs[-1] != point):
                legs.append(point)
            return "Destination" in arrived(web)
        reached = sail_until(at_end, 240)
        closest = [boat.closest(p) for p in points[1:]]
        check(reached and legs == list(range(1, len(points))) and all(d < 100 for d in closest)
              and bus.mode == ROUTE_MODE,
              f"the routed beat sailed to its end by the pilot in route mode, each tack in turn (points {legs}), "
              f"{arrived(web)!r}, the boat within {', '.join(f'{d:.0f} m' for d in closest)} of them (arrival circle 93 m)",
              (legs, closest, gateway.log()[-400:]))
    finally:
        bus.stopped = True
        gateway.stop()
