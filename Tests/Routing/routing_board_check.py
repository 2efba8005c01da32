"""Weather routing on board (#52): a real `telltale run` at anchor in Quiberon bay with the Brittany forecast in its
weather folder (imported by its own ecCodes process), its polar and the base map.

1. `/telltale/v1/routing`: a passage planned in the router's own process, the same plan as `telltale route plan`
   gives for that place and time, kept as a route resource (the Resources API lists it), followed through the Course
   API; the departure window; a destination on land said; an unapproved device and a broken body refused; the
   daemon's own memory not grown by the plan; the polar learnt from sailing taken over the configured one
   (routing_board_learnt.py).
2. Under way on the routed route, a new forecast run dropped into the weather folder: planned again from the boat
   and followed on, said in the log.
3. The panel in chromium: the chart's Weather route tool, a tap for the destination, the isochrones and the route
   drawn, Follow.
4. A routed beat sailed to its end by the route follower and the pilot on the bus, a simulated boat steered by it
   (routing_board_sail.py).

    routing_board_check.py BINARY POLAR BASEMAP
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from support import Checks, Gateway, free_port, memory_kb, nmea_position, sentence, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402
from routing_board_panel import weather_route_tool  # noqa: E402
from routing_board_sail import sail_routed_route  # noqa: E402
from routing_board_learnt import learnt_polar  # noqa: E402

binary, polar, basemap = sys.argv[1:4]
check = Checks("routing-board-check")
work = tempfile.mkdtemp(prefix="telltale-routing-board-")
gribs = os.path.join(work, "gribs")
os.makedirs(gribs)
subprocess.run(["/usr/bin/python3", os.path.join(HERE, "routing_grib.py"), os.path.join(gribs, "brittany.grb2"),
                "20260815", "0"], check=True)
T0 = 1786752000  # 2026-08-15T00:00Z
START = (47.50, -2.98)
GOAL = (47.58, -3.40)
web, udp = free_port(), free_port(socket.SOCK_DGRAM)
config = f"""status_line = false
state_file = "{work}/state/state.toml"
polar = "{polar}"
[[input]]
name = "gps"
url = "udp://127.0.0.1:{udp}"
[weather]
grib = "{gribs}"
[chart]
basemap = "{basemap}"
[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
"""
boat = {"lat": START[0], "lon": START[1], "t": T0 + 2 * 3600, "stop": False}


def feed():
    """The GPS: a fix a second on the forecast's day (the boat's clock), where `boat` says."""
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    while not boat["stop"]:
        t = time.gmtime(boat["t"])
        sender.sendto(sentence(f"GPRMC,{time.strftime('%H%M%S', t)}.00,A,{nmea_position(boat['lat'], 'NS')},"
                               f"{nmea_position(boat['lon'], 'EW')},0.0,0.0,{time.strftime('%d%m%y', t)},,,A"),
                      ("127.0.0.1", udp))
        boat["t"] += 1
        time.sleep(1)


gateway = Gateway(binary, config, work=work, name="routing").start(wait=[web])
threading.Thread(target=feed, daemon=True).start()
http = HTTP(web, timeout=20)


def unix(text):
    import calendar
    return calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")) + float(text[19:-1] or 0)


def routing():
    status, body = http.text("/telltale/v1/routing")
    return json.loads(body) if status == 200 else {}


def post(body):
    """A plan asked for, and the answer to the POST; `planned` then waits for this one's end."""
    global asked_after
    asked_after = routing().get("at")
    return http.text("/telltale/v1/routing", method="POST", body=json.dumps(body).encode())


asked_after = None


def planned(seconds=120):
    """The plan asked for last, once made or refused (a plan before it has another `at`)."""
    wait_for(lambda: routing().get("state") in ("planned", "failed") and routing().get("at") != asked_after, seconds,
             step=0.5)
    return routing()


imported = wait_for(lambda: "missing" not in routing() and routing().get("state") == "idle", 60, step=1)
check(imported, "the forecast imported into the weather folder, the router ready (no `missing`)",
      json.dumps(routing()) + gateway.log()[-400:])
wait_for(lambda: (json.loads(http.text("/signalk/v1/api/vessels/self/navigation/position")[1] or "{}")
                  .get("value") or {}).get("latitude"), 20)
before = memory_kb(gateway.process.pid, "RssAnon")
status, answer = post({"to": {"latitude": GOAL[0], "longitude": GOAL[1]}})
check(status == 202 and json.loads(answer).get("state") == "running",
      "POST /telltale/v1/routing: 202, the router running in its own process", answer[:300])
done = planned()
after = memory_kb(gateway.process.pid, "RssAnon")
plan = done.get("plan") or {}
depart = plan.get("departure", "")
asked = (done.get("job") or {}).get("from") or {}
cli = subprocess.run([binary, "route", "plan", "--from", f"{asked.get('latitude')!r},{asked.get('longitude')!r}",
                      "--to", f"{GOAL[0]},{GOAL[1]}",
                      "--depart", depart, "--grib", os.path.join(gribs, "brittany.grb2"), "--polar", polar,
                      "--basemap", basemap, "--json"], capture_output=True, text=True, timeout=300)
alone = json.loads(cli.stdout) if cli.returncode == 0 else {}
same = (plan.get("waypoints") and len(plan["waypoints"]) == len(alone.get("waypoints", []))
        and all(abs(a["lat"] - b["lat"]) < 1e-6 and abs(a["lon"] - b["lon"]) < 1e-6
                # The command line is told the departure to the millisecond the plan printed it.
                and abs(unix(a["time"]) - unix(b["time"])) < 0.01
                for a, b in zip(plan["waypoints"], alone["waypoints"])))
check(done.get("state") == "planned" and same and abs(unix(plan.get("eta", "1970-01-01T00:00:00Z"))
                                                       - unix(alone.get("eta", "1970-01-01T00:00:00Z"))) < 0.01,
      f"planned from the boat's position at the boat's time ({depart[:16]}): the same {len(plan.get('waypoints', []))} "
      f"waypoints and ETA {plan.get('eta', '')[:16]} as `telltale route plan` gives",
      [(a, b) for a, b in zip(plan.get("waypoints", []), alone.get("waypoints", [])) if a != b][:2]
      + [len(plan.get("waypoints", [])), len(alone.get("waypoints", []))] + [cli.stderr[-200:]])
check(after - before < 200, f"the daemon's own memory: RssAnon {before} kB before the plan, {after} kB after "
      "(the search in its own process)")
href = done.get("route", "")
status, listed = http.text("/signalk/v2/api/resources/routes")
routes = json.loads(listed) if status == 200 else {}
kept = routes.get(href.split("/")[-1], {})
coordinates = (kept.get("feature") or {}).get("geometry", {}).get("coordinates", [])
check(href.startswith("/resources/routes/") and len(coordinates) == len(plan.get("waypoints", []))
      and all(abs(c[0] - w["lon"]) < 1e-6 and abs(c[1] - w["lat"]) < 1e-6
              for c, w in zip(coordinates, plan.get("waypoints", []))),
      f"kept as a route resource ({href}) that the Resources API lists, its points the plan's", json.dumps(kept)[:300])
status, _ = http.text("/signalk/v2/api/vessels/self/navigation/course/activeRoute", method="PUT",
                      body=json.dumps({"href": href, "pointIndex": 1}).encode())
course = {}
wait_for(lambda: (json.loads(http.text("/signalk/v2/api/vessels/self/navigation/course")[1] or "{}")
                  .get("activeRoute") or {}).get("href") == href, 10)
course = json.loads(http.text("/signalk/v2/api/vessels/self/navigation/course")[1] or "{}")
nxt = (course.get("nextPoint") or {}).get("position") or {}
check(status == 200 and (course.get("activeRoute") or {}).get("href") == href
      and abs(nxt.get("latitude", 0) - plan["waypoints"][1]["lat"]) < 1e-5,
      "followed through the Course API: the active route is the routed one, heading for its first turn",
      json.dumps(course)[:300])

# The learnt polar over the configured one.
learnt_polar(check, types.SimpleNamespace(state=os.path.join(work, "state"), post=post, planned=planned), binary,
             polar, gribs, basemap, GOAL, plan)

# The window, a destination on land, refusals.
body = json.dumps({"to": {"latitude": GOAL[0], "longitude": GOAL[1]}, "window": 12, "every": 4}).encode()
status, _ = post({"to": {"latitude": GOAL[0], "longitude": GOAL[1]}, "window": 12, "every": 4})
window = planned()
rows = (window.get("window") or {}).get("departures", [])
times = ", ".join(f"{r.get('duration_s', 0) / 3600:.2f} h" for r in rows)
check(status == 202 and len(rows) == 4 and all(r.get("duration_s") for r in rows),
      f"the departure window on board: 4 departures 4 h apart, each its time on the way ({times})",
      json.dumps(window)[:300])
status, _ = post({"to": {"latitude": 47.60, "longitude": -3.10}})
land = planned()
check(land.get("state") == "failed" and "destination is on land" in land.get("message", ""),
      f"a destination on land: said ({land.get('message', '')})", json.dumps(land)[:300])
status, _, answer = HTTP(web).request("POST", "/telltale/v1/routing", raw=body, source="127.0.0.5")
check(status in (401, 403), f"an unapproved device may not plan ({status})", answer[:200])
status, answer = http.text("/telltale/v1/routing", method="POST", body=b"{not json")
check(status == 400, f"a body that is not the passage: 400 ({answer[:80]})")

# Under way on the routed route: a new forecast run comes, the route is planned again from the boat and followed on.
status, _ = post({"to": {"latitude": GOAL[0], "longitude": GOAL[1]}})
first = planned()
href = first.get("route", "")
http.text("/signalk/v2/api/vessels/self/navigation/course/activeRoute", method="PUT",
          body=json.dumps({"href": href, "pointIndex": 1}).encode())
boat["lat"], boat["lon"] = 47.45, -2.99  # sailed on a little towards the first turn
time.sleep(12)
subprocess.run(["/usr/bin/python3", os.path.join(HERE, "routing_grib.py"), os.path.join(gribs, "brittany-06z.grb2"),
                "20260815", "6"], check=True)
again = wait_for(lambda: (routing().get("job") or {}).get("reason") == "a new forecast"
                 and routing().get("state") == "planned" and routing().get("route") not in (None, href), 90, step=1)
said = "(a new forecast)" in gateway.log()
now = routing()
wait_for(lambda: (json.loads(http.text("/signalk/v2/api/vessels/self/navigation/course")[1] or "{}")
                  .get("activeRoute") or {}).get("href") == now.get("route"), 10)
course = json.loads(http.text("/signalk/v2/api/vessels/self/navigation/course")[1] or "{}")
start = (now.get("plan") or {}).get("waypoints", [{}])[0]
check(again and said and (course.get("activeRoute") or {}).get("href") == now.get("route")
      and abs(start.get("lat", 0) - 47.45) < 1e-3 and abs(start.get("lon", 0) + 2.99) < 1e-3,
      "a new forecast run in the weather folder while on the routed route: planned again from the boat "
      f"({start.get('lat')}, {start.get('lon')}), the new route followed, said in the log",
      json.dumps(now)[:300] + gateway.log()[-500:])

weather_route_tool(check, http, web, work, GOAL)
boat["stop"] = True
gateway.stop()
sail_routed_route(check, binary, polar, basemap, gribs, T0)
check.finish()
