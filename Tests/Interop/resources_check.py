"""Checks the Resources API v2 (#40) against signalk-server's resource schemas, as apps use it.

The gateway plays the demo voyage with a state folder; routes and waypoints are made over HTTP, read back and
validated, a route is activated by href and followed (BWC on the TCP output names its first point), the gateway is
restarted and finds them on the card. Prints 'resources-check: N passed, M failed'.

    resources_check.py BINARY
"""

import json
import os
import sys
import tempfile
import time

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ROOT, Checks, Gateway, OutputReader, free_port, demo_input  # noqa: E402
from webclient import HTTP  # noqa: E402

binary = sys.argv[1]
checks = Checks("resources-check")
here = os.path.dirname(os.path.abspath(__file__))
schema = json.load(open(os.path.join(here, "signalk-resources", "resources-api.json")))
course_schema = json.load(open(os.path.join(here, "signalk-course", "course-api.json")))
demo = os.path.join(ROOT, "Fixtures", "demo-voyage")
web, nmea = free_port(), free_port()
state = tempfile.mkdtemp(prefix="telltale-resources-")
API = "/signalk/v2/api/resources"
COURSE = "/signalk/v2/api/vessels/self/navigation/course"
PHONE = "127.0.0.5"
gateway = Gateway(binary, f"""talker = "II"
route = "{demo}/route.gpx"
status_line = false
state_file = "{state}/state.toml"

{demo_input(loop=True, speed=2)}
[[output]]
name = "plotter"
url = "tcp://127.0.0.1:{nmea}"

[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
""").start(wait=[web, nmea])


def valid(definition, document, against=schema):
    whole = dict(against)
    whole["$ref"] = f"#/definitions/{definition}"
    try:
        jsonschema.validate(document, whole)
        return True, ""
    except jsonschema.ValidationError as error:
        return False, error.message


def request(method, path, body=None, raw=None, source="127.0.0.1", headers=None):
    status, _, payload = HTTP(web).request(method, path, body=body, raw=raw, headers=headers, source=source)
    try:
        return status, json.loads(payload) if payload else None
    except ValueError:
        return status, payload.decode(errors="replace")


def route(name, points):
    return {"name": name, "description": "made by resources_check",
            "feature": {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[lon, lat] for _, lat, lon in points]},
                        "properties": {"coordinatesMeta": [{"name": n} for n, _, _ in points]}}}


output = OutputReader(nmea, reconnect=True)
time.sleep(2)

# 1. The list as it starts: the configured route, as a Route.
status, routes = request("GET", API + "/routes")
configured = (routes or {}).get("7e11a1e0-2c5b-4d0a-9f3e-5a1b0c7d2e94", {})
ok, why = valid("Route", configured)
checks(status == 200 and configured.get("name") == "Demo triangle" and ok,
       "GET routes: the route of telltale.toml is listed, a Route as the schema has it", why or routes)
status, kinds = request("GET", API)
checks(status == 200 and set(kinds or {}) >= {"routes", "waypoints", "notes", "regions", "charts"},
       "GET resources: the five kinds", kinds)

# 2. Made, read, listed with filters.
passage = route("Passage", [("TT1", 50.7700, -1.2900), ("TT2", 50.7600, -1.2600), ("TT3", 50.7500, -1.2300)])
status, made = request("POST", API + "/routes", passage)
ok, why = valid("Created", made or {})
route_id = (made or {}).get("id", "")
checks(status == 201 and ok, "POST a route: 201 COMPLETED with a server-made UUID", why or made)
status, kept = request("GET", f"{API}/routes/{route_id}")
ok, why = valid("Route", kept or {})
ok2, why2 = valid("Kept", kept or {})
checks(status == 200 and ok and ok2 and kept["feature"]["geometry"] == passage["feature"]["geometry"],
       "GET it: the same geometry, a Route with its timestamp and $source", why or why2 or kept)
status, made_wp = request("POST", API + "/waypoints", {"name": "Anchorage", "feature": {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-1.2700, 50.7650]}}})
waypoint_id = (made_wp or {}).get("id", "")
status_n, made_note = request("POST", API + "/notes", {"title": "Fuel dock", "description": "open 8-18", "position": {"latitude": 50.766, "longitude": -1.297}, "mimeType": "text/plain"})
status_r, made_region = request("POST", API + "/regions", {"name": "No anchoring", "feature": {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[-1.30, 50.76], [-1.28, 50.76], [-1.28, 50.78], [-1.30, 50.76]]]}}})
checks(status == 201 and status_n == 201 and status_r == 201, "POST a waypoint, a note and a region", (made_wp, made_note, made_region))
for kind, definition in (("waypoints", "Waypoint"), ("notes", "Note"), ("regions", "Region")):
    status, listed = request("GET", f"{API}/{kind}")
    problems = [valid(definition, value)[1] for value in (listed or {}).values() if not valid(definition, value)[0]]
    checks(status == 200 and len(listed or {}) == 1 and not problems, f"GET {kind}: each a {definition}", problems or listed)
_, inside = request("GET", API + "/routes?bbox=[-1.27,50.74,-1.22,50.755]")
_, outside = request("GET", API + "/routes?bbox=[10,10,11,11]")
checks(route_id in (inside or {}) and "7e11a1e0-2c5b-4d0a-9f3e-5a1b0c7d2e94" not in (inside or {}) and not outside,
       "bbox: the routes with a point inside it, none elsewhere", (list(inside or {}), outside))
_, near = request("GET", API + "/waypoints?distance=2000&position=[-1.27,50.77]")
_, far = request("GET", API + "/waypoints?distance=200&position=[-1.27,50.77]")
checks(waypoint_id in (near or {}) and not far, "distance from a position: within 2 km, not within 200 m", (near, far))
_, limited = request("GET", API + "/routes?limit=1")
checks(len(limited or {}) == 1, "limit=1: one", limited)

# A name that carries a line of its own: followed, its name in the log on the line it belongs to, escaped, never a
# made-up line (a forged `<0>` priority for journald) nor a terminal's escape. The first command the crew gives here
# (the log holds back the repeats of one kind of command for 30 s).
forged = route("Evil\n<0>forged by a client\x1b[2J", [("F1\r\n<0>forged point", 50.7700, -1.2900), ("F2", 50.7600, -1.2600)])
status, made = request("POST", API + "/routes", forged)
forged_id = (made or {}).get("id", "")
status2, _ = request("PUT", COURSE + "/activeRoute", {"href": f"/resources/routes/{forged_id}"})
time.sleep(2)
log = gateway.log()
checks(status == 201 and status2 == 200 and "Evil\\x0a<0>forged by a client\\x1b[2J" in log
       and not any(line.startswith("<") or "forged" in line.split("Evil")[0] for line in log.splitlines())
       and "\x1b" not in log,
       "a route named with a newline, a `<0>` and an escape: followed, logged on one line, escaped",
       [line for line in log.splitlines() if "forged" in line][-3:])
request("DELETE", f"{API}/routes/{forged_id}")

# 3. Activated by href: the engine follows it, BWC names its first point on TCP, the course names the href.
mark = len(output)
status, answer = request("PUT", COURSE + "/activeRoute", {"href": f"/resources/routes/{route_id}"})
time.sleep(3)
_, course = request("GET", COURSE)
ok, why = valid("CourseInfo", course or {}, against=course_schema)
active = (course or {}).get("activeRoute") or {}
checks(status == 200 and active.get("href") == f"/resources/routes/{route_id}" and active.get("name") == "Passage" and ok,
       "PUT activeRoute with the new route's href: followed, the course names it (CourseInfo)", why or course)
bwc = [text for _, text in output.lines()[mark:] if text[3:6] == "BWC"]
# As the route command `start` has it: the first leg, from TT1 (from the boat, with a fix) to TT2.
checks(bool(bwc) and bwc[-1].split("*")[0].split(",")[12] == "TT2",
       "BWC on the TCP output: the route's first leg, to TT2", bwc[-1:] or len(output))
status, answer = request("PUT", COURSE + "/destination", {"href": f"/resources/waypoints/{waypoint_id}"})
time.sleep(2)
_, course = request("GET", COURSE)
point = ((course or {}).get("nextPoint") or {}).get("position") or {}
checks(status == 200 and abs(point.get("latitude", 0) - 50.765) < 1e-6 and abs(point.get("longitude", 0) + 1.27) < 1e-6,
       "PUT destination with a waypoint's href: the next point is the waypoint", course)
status, answer = request("PUT", COURSE + "/activeRoute", {"href": "/resources/routes/00000000-0000-4000-8000-000000000000"})
checks(status == 404, "activeRoute with the href of no route kept: 404", answer)

# 4. Replaced and refused.
passage["name"] = "Passage, Sunday"
status, answer = request("PUT", f"{API}/routes/{route_id}", passage)
_, kept = request("GET", f"{API}/routes/{route_id}")
checks(status == 200 and (kept or {}).get("name") == "Passage, Sunday", "PUT by id replaces it", answer)
_, before = request("GET", API + "/routes")
hostile = [
    ("broken GeoJSON", "POST", API + "/routes", json.dumps({"feature": {"geometry": {"type": "LineString", "coordinates": [[1, 2]]}}}).encode(), 400),
    ("not JSON", "POST", API + "/routes", b"{\"feature\":", 400),
    ("a body of 200 KB", "POST", API + "/routes", b"[" + b"1," * 100000 + b"1]", 413),
    ("nested 10000 deep", "POST", API + "/notes", b"[" * 10000 + b"]" * 10000, 400),
    ("a latitude of 91", "POST", API + "/waypoints", json.dumps({"feature": {"geometry": {"type": "Point", "coordinates": [0, 91]}}}).encode(), 400),
    ("an id with a path in it", "PUT", API + "/routes/..%2F..%2Fstate.toml", json.dumps(passage).encode(), 404),
    ("an id that is not a UUID", "PUT", API + "/routes/state.toml", json.dumps(passage).encode(), 400),
    ("a write to charts", "POST", API + "/charts", b"{}", 405),
]
for what, method, path, raw, expected in hostile:
    status, answer = request(method, path, raw=raw)
    checks(status == expected, f"{what}: {expected}", (status, answer))
for query in ("limit=-1", "bbox=[1,2,3]", "distance=-5", "distance=1e400", "limit=" + "9" * 5000, "paths=" + ",".join(["a"] * 1000)):
    status, answer = request("GET", API + "/waypoints?" + query)
    checks(status in (400, 431), f"query {query[:24]}...: refused", (status, str(answer)[:80]))
_, after = request("GET", API + "/routes")
checks(before == after, "nothing stored by any of them", (len(before or {}), len(after or {})))
status, answer = request("POST", API + "/routes", passage, source=PHONE)
checks(status == 401, "a device that was not approved may read, not write (401)", answer)
checks(gateway.alive(), "the gateway is still up")

# 5. On the card: one file each; there after a restart; deleted for good.
files = sorted(os.listdir(os.path.join(state, "resources", "routes")))
checks(files == [route_id + ".json"], "kept as resources/routes/<id>.json beside the state file", files)
gateway.stop()
said = [line for line in gateway.log().splitlines() if "web: following route Passage" in line]
checks(len(said) == 1 and "s late: held back" in said[0],
       "the crew's second route followed within 30 s of the first: held back by the log, said by the time it stops",
       said or gateway.log()[-600:])
to_point = [line for line in gateway.log().splitlines() if "web: " in line and "destination" in line]
checks(len(to_point) == 1 and "s late" not in to_point[0] and "held back" not in to_point[0],
       "a command of another kind just after them (a destination) said at once, alone", to_point or gateway.log()[-600:])
gateway.start(wait=[web])
_, again = request("GET", API + "/routes")
checks((again or {}).get(route_id, {}).get("name") == "Passage, Sunday", "after a restart: still there", list(again or {}))
status, answer = request("DELETE", f"{API}/routes/{route_id}")
status2, _ = request("GET", f"{API}/routes/{route_id}")
checks(status == 200 and status2 == 404 and not os.listdir(os.path.join(state, "resources", "routes")),
       "DELETE: gone from the list and the card", answer)
status, answer = request("DELETE", API + "/routes/7e11a1e0-2c5b-4d0a-9f3e-5a1b0c7d2e94")
checks(status == 403, "the route of telltale.toml cannot be deleted here (403)", answer)
status, charts = request("GET", API + "/charts")
checks(status == 200 and isinstance(charts, dict), "GET charts: the chart folder's MBTiles (none here)", charts)
output.stop()
gateway.stop()
checks.finish()
