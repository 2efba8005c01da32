"""Checks Telltale's Signal K server as the crew's apps use it (#27), message by message against the reference server.

Each check names the signalk-server file its expectation comes from (commit 9edfbf95). The gateway runs the demo
voyage on loopback; every attack is bounded in count and time. Prints 'signalk-apps-check: N passed, M failed'.

    signalk_apps_check.py BINARY
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error

import jsonschema
import websocket

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ROOT, Checks, Gateway, free_port, demo_input  # noqa: E402
from webclient import HTTP  # noqa: E402

binary = sys.argv[1]
web = free_port()
demo = os.path.join(ROOT, "Fixtures", "demo-voyage")
gateway = Gateway(binary, f"""talker = "II"
route = "{demo}/route.gpx"
status_line = false
state_file = ""

{demo_input(loop=True, speed=2)}
[alarms]
over_heel = 1

[web]
listen = "127.0.0.1:{web}"
""").start(wait=[web])
BASE = f"http://127.0.0.1:{web}"
COURSE = "/signalk/v2/api/vessels/self/navigation/course"
checks = Checks("signalk-apps-check")
here = os.path.dirname(os.path.abspath(__file__))
course_schema = json.load(open(os.path.join(here, "signalk-course", "course-api.json")))


def check(name, ok, detail=""):
    checks(ok, name, detail)


def request(method, path, body=None, headers=None, source="127.0.0.1", timeout=5, port=None):
    """One HTTP request on its own connection, from `source` (any 127/8 address is this machine)."""
    status, head, payload = HTTP(port or web).request(
        method, path, body=body, headers=headers, source=source, timeout=timeout)
    return status, head, payload.decode(errors="replace")


def valid(definition, document):
    schema = dict(course_schema)
    schema["$ref"] = f"#/definitions/{definition}"
    try:
        jsonschema.validate(document, schema)
        return True, ""
    except jsonschema.ValidationError as error:
        return False, error.message


def handshake(source="127.0.0.1", query="subscribe=none"):
    """A raw WebSocket upgrade; the socket and the status line."""
    s = socket.create_connection(("127.0.0.1", web), timeout=5, source_address=(source, 0))
    s.sendall((f"GET /signalk/v1/stream?{query} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    return s, head.split(b"\r\n")[0].decode(errors="replace")


# A stream that never answers a ping, watched from the start (it takes a minute): ws.ts pings every 30 s
# (wsPingInterval) and ends a spark that did not answer the last one.
silent_stream = {}


def watch_silent_stream():
    s, _ = handshake(source="127.0.0.9")
    started = time.monotonic()
    s.settimeout(1)
    data = b""
    while time.monotonic() - started < 80:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            silent_stream["closed"] = time.monotonic() - started
            break
        data += chunk
        if b"\x89" in data and "ping" not in silent_stream:
            silent_stream["ping"] = time.monotonic() - started
    s.close()


watcher = threading.Thread(target=watch_silent_stream, daemon=True)
watcher.start()

# 1. Connections that clean themselves (defect 1): 32 slow-loris requests, then 32 silent sockets; each time a
# real client gets in within a second.
loris = []
for _ in range(32):
    s = socket.create_connection(("127.0.0.1", web), timeout=5)
    s.sendall(b"GET /signalk HTTP/1.1\r\nHost: x\r\n")
    loris.append(s)
time.sleep(0.3)
started = time.monotonic()
status, _, body = request("GET", "/signalk", timeout=1)
check(f"32 slow-loris requests held open: GET /signalk still answered ({time.monotonic() - started:.2f} s)",
      status == 200 and time.monotonic() - started < 1, status)
ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=none", timeout=1)
check("and a stream opens beside them", json.loads(ws.recv()).get("self", "").startswith("vessels."))
ws.close()
# Drip a byte into those still open; the request timeout (10 s) answers them 408.
deadline = time.monotonic() + 14
answered = 0
for s in loris:
    s.settimeout(max(0.1, deadline - time.monotonic()))
    try:
        s.sendall(b"X")
        reply = s.recv(256)
        if reply.startswith(b"HTTP/1.1 408") or reply == b"":
            answered += 1
    except OSError:
        answered += 1
    s.close()
check(f"the slow-loris requests were answered 408 or closed ({answered} of 32) within the request timeout",
      answered == 32)

silent = [socket.create_connection(("127.0.0.1", web), timeout=5) for _ in range(32)]
time.sleep(0.3)
started = time.monotonic()
ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=none", timeout=1)
hello = json.loads(ws.recv())
check(f"32 silent sockets held open: a stream client gets its hello in {time.monotonic() - started:.2f} s",
      time.monotonic() - started < 1 and "self" in hello)
ws.close()
closed = 0
for s in silent:
    s.settimeout(max(0.1, started + 17 - time.monotonic()))
    try:
        closed += s.recv(1) == b""
    except OSError:
        closed += 1
    s.close()
check(f"the silent sockets were closed by the idle timeout ({closed} of 32)", closed == 32)

# Per address and per kind (ws.ts: maxWsConnectionsPerIp): one device cannot hold every stream.
streams = [handshake(source="127.0.0.2") for _ in range(13)]
statuses = [line for _, line in streams]
check("one address: 12 streams, the 13th refused 503",
      statuses[:12] == ["HTTP/1.1 101 Switching Protocols"] * 12 and statuses[12].startswith("HTTP/1.1 503"), statuses)
other, line = handshake(source="127.0.0.3")
check("another address still opens its stream", line == "HTTP/1.1 101 Switching Protocols", line)
for s, _ in streams + [(other, "")]:
    s.close()

# 2. The hello and the stream's parameters (ws.ts: sendMeta, sendCachedValues; subscriptionmanager.ts: policies).
status, _, body = request("GET", "/signalk")
discovery = json.loads(body)
ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=self", timeout=5)
hello = json.loads(ws.recv())
check("the hello's version is the server's, as in discovery (ws.ts: helloProps)",
      hello.get("version") == discovery["server"]["version"], (hello.get("version"), discovery.get("server")))
deltas = [json.loads(ws.recv()) for _ in range(30)]
ws.close()
check("no meta unless sendMeta=all (ws.ts: sendMetaDeltas)",
      all("meta" not in update for delta in deltas for update in delta.get("updates", [])))
def sources(deltas, path):
    return {u.get("$source") for d in deltas for u in d.get("updates", []) for v in u.get("values", [])
            if v["path"] == path and v["value"] is not None}


check("one value a path: apparent wind only from the engine, not fighting the instrument's (defect 5)",
      sources(deltas, "environment.wind.angleApparent") == {"telltale.computed"},
      sources(deltas, "environment.wind.angleApparent"))
ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=self&sourcePolicy=all", timeout=5)
ws.recv()
every = [json.loads(ws.recv()) for _ in range(40)]
ws.close()
check("sourcePolicy=all: every source's apparent wind (ws.ts: spark.sourcePolicy)",
      sources(every, "environment.wind.angleApparent") == {"telltale.computed", "demo-voyage.WI"},
      sources(every, "environment.wind.angleApparent"))
status, _, body = request("GET", "/signalk/v1/api/vessels/self/environment/wind/angleApparent")
leaf = json.loads(body) if status == 200 else {}
check("the REST model: the engine's value, the instrument's under values",
      leaf.get("$source") == "telltale.computed" and "demo-voyage.WI" in leaf.get("values", {}), body[:300])
check("headingTrue from the compass (HDG with variation, 10 Hz), preferred to the engine's 2 Hz copy",
      sources(deltas, "navigation.headingTrue") == {"demo-voyage.HC"}, sources(deltas, "navigation.headingTrue"))
ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=self&sendMeta=all", timeout=5)
ws.recv()
metas = []
for _ in range(30):
    delta = json.loads(ws.recv())
    metas += [m for u in delta.get("updates", []) for m in u.get("meta", [])]
ws.close()
attitude = [m for m in metas if m["path"] == "navigation.attitude"]
check("with sendMeta=all, meta comes; navigation.attitude's says the unit of roll and pitch",
      attitude and attitude[0]["value"].get("properties", {}).get("roll", {}).get("units") == "rad", attitude[:1])
ws = websocket.create_connection(
    f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=none&sendCachedValues=false", timeout=5)
ws.recv()
ws.send(json.dumps({"context": "self", "subscribe": [{"path": "navigation.position", "period": 2000}]}))
ws.settimeout(6)
times = []
started = time.monotonic()
while time.monotonic() - started < 5.5:
    try:
        delta = json.loads(ws.recv())
    except websocket.WebSocketTimeoutException:
        break
    if any(v["path"] == "navigation.position" for u in delta.get("updates", []) for v in u.get("values", [])):
        times.append(time.monotonic() - started)
ws.close()
gaps = [b - a for a, b in zip(times, times[1:])]
check(f"context \"self\" and a period without a policy: fixed, one position every 2 s ({len(times)} in 5.5 s)",
      2 <= len(times) <= 4 and all(g > 1.5 for g in gaps), times)

# 2b. Subscriptions with every parameter (src/subscriptionmanager.ts: subscribe, unsubscribe, contextMatcher; the
# specification's subscription_protocol.md where the reference does less), on one stream that starts with nothing.


def listen(ws, seconds):
    """What arrives in `seconds`: (time, context, path) for each value."""
    got = []
    started = time.monotonic()
    ws.settimeout(0.2)
    while time.monotonic() - started < seconds:
        try:
            delta = json.loads(ws.recv())
        except websocket.WebSocketTimeoutException:
            continue
        for update in delta.get("updates", []):
            for v in update.get("values", []):
                got.append((time.monotonic() - started, delta.get("context"), v["path"]))
    return got


def paths(got):
    return {p for _, _, p in got}


def gaps(got, path):
    times = [t for t, _, p in got if p == path]
    return times, [b - a for a, b in zip(times, times[1:])]


ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=none", timeout=5)
self_context = json.loads(ws.recv()).get("self")
got = listen(ws, 2)
check("subscribe=none: nothing but the hello until the client asks (ws.ts: the subscribe query)", got == [], got[:3])
ws.send(json.dumps({"context": "vessels.self", "subscribe": [{"path": "navigation.speedOverGround"}]}))
got = listen(ws, 2)
first = min((t for t, _, p in got if p == "navigation.speedOverGround"), default=None)
check(f"a path subscribed: its current value at once ({first}), then that path alone "
      "(subscriptionmanager.ts: the bootstrap snapshot at subscribe time)",
      first is not None and first < 0.6 and paths(got) == {"navigation.speedOverGround"}, paths(got))
check("every delta names this boat's context", {c for _, c, _ in got} == {self_context}, {c for _, c, _ in got})
ws.send(json.dumps({"context": "vessels.self", "subscribe": [{"path": "environment.wind.*", "format": "full"}]}))
got = listen(ws, 2)
wind = {p for p in paths(got) if p.startswith("environment.wind.")}
check("a wildcard added in a second message: its paths too and nothing else; format full still sends deltas "
      "(subscriptionmanager.ts: 'Only delta format supported')",
      len(wind) >= 3 and paths(got) - wind == {"navigation.speedOverGround"}, paths(got))
ws.send(json.dumps({"context": "vessels.self", "unsubscribe": [{"path": "environment.wind.*"}]}))
listen(ws, 0.5)
got = listen(ws, 2)
check("one path unsubscribed: it stops, the other goes on (subscription_protocol.md; the reference takes only '*')",
      paths(got) == {"navigation.speedOverGround"}, paths(got))
ws.send(json.dumps({"context": "*", "unsubscribe": [{"path": "*"}]}))
listen(ws, 0.5)
got = listen(ws, 2)
check("unsubscribe context * path *: nothing more (subscriptionmanager.ts: unsubscribe)", got == [], got[:3])
ws.send(json.dumps({"context": "vessels.*", "subscribe": [
    {"path": "navigation.headingTrue", "policy": "instant"},
    {"path": "navigation.position", "period": 1000, "policy": "fixed"}]}))
got = listen(ws, 4)
# vessels.* is this boat and the demo voyage's two ships on AIS; the policies are judged on this boat's values.
own = [entry for entry in got if entry[1] == self_context]
instant, _ = gaps(own, "navigation.headingTrue")
fixed, fixed_gaps = gaps(own, "navigation.position")
ships = {c for _, c, _ in got if c.startswith("vessels.urn:mrn:imo:mmsi:")}
check(f"two rows in one message, context vessels.*: headingTrue instant ({len(instant)} in 4 s), position fixed at "
      f"1 s ({len(fixed)}), and the ships on AIS ({len(ships)}) (subscriptionmanager.ts: contextMatcher, policies)",
      len(instant) >= 8 and 3 <= len(fixed) <= 6 and all(g > 0.6 for g in fixed_gaps[1:]) and len(ships) == 2,
      (instant[:5], fixed, ships))
ws.send(json.dumps({"context": "vessels.self", "subscribe": [
    {"path": "navigation.headingTrue", "minPeriod": 1000, "policy": "instant"}]}))
listen(ws, 0.5)
got = listen(ws, 4)
debounced, debounced_gaps = gaps([entry for entry in got if entry[1] == self_context], "navigation.headingTrue")
check(f"minPeriod 1000 replaces the row: headingTrue no more than once a second ({len(debounced)} in 4 s) "
      "(subscriptionmanager.ts: debounceImmediate(minPeriod))",
      2 <= len(debounced) <= 5 and all(g > 0.9 for g in debounced_gaps), debounced)
ws.send(json.dumps({"context": "*", "unsubscribe": [{"path": "*"}]}))
ws.send(json.dumps({"context": "vessels.urn:mrn:imo:mmsi:235999999", "subscribe": [{"path": "*"}]}))
listen(ws, 0.5)
got = listen(ws, 2)
check("a subscription for a vessel not heard: nothing, none of this boat's values (subscriptionmanager.ts: "
      "contextMatcher)", got == [], got[:3])
ws.send(json.dumps({"context": "vessels.urn:mrn:imo:mmsi:235000001", "subscribe": [{"path": "*"}]}))
got = listen(ws, 12)
check("a subscription for the ship on AIS: her values alone, in her context",
      {c for _, c, _ in got} == {"vessels.urn:mrn:imo:mmsi:235000001"} and "navigation.position" in paths(got),
      got[:3])
ws.send(json.dumps({"context": "*", "unsubscribe": [{"path": "*"}]}))
listen(ws, 0.5)
ws.send(json.dumps({"context": "vessels.self", "subscribe": [{"period": 1000}, {"path": 7}, {"path": ""}]}))
ws.send(json.dumps({"context": "vessels.self", "subscribe": [{"path": "navigation.position", "period": 1000}]}))
got = listen(ws, 2.5)
check("rows without a usable path are passed over; the stream and the next subscribe go on",
      paths(got) == {"navigation.position"} and gateway.alive(), paths(got))
ws.close()
ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=all", timeout=5)
ws.recv()
got = listen(ws, 2)
check(f"subscribe=all: everything ({len(paths(got))} paths in 2 s) (ws.ts: the subscribe query)",
      {"navigation.position", "environment.wind.angleApparent", "navigation.headingTrue"} <= paths(got))
ws.close()

# 3. The Course API (src/api/course/index.ts; docs/develop/rest-api/course_api.md), checked against its schemas.
status, _, body = request("GET", "/signalk/v2/features")
check("GET /signalk/v2/features lists the course API", status == 200 and "course" in json.loads(body)["apis"], body)
status, _, body = request("GET", COURSE)
course = json.loads(body) if status == 200 else {}
ok, why = valid("CourseInfo", course)
check("GET course: the demo route, valid CourseInfo", status == 200 and ok and course.get("activeRoute"), why or body)
route_href = (course.get("activeRoute") or {}).get("href")
time.sleep(1)
status, _, body = request("GET", COURSE + "/calcValues")
calc = json.loads(body) if status == 200 else {}
ok, why = valid("CourseCalculations", calc)
check("GET course/calcValues: valid CourseCalculations with distance, bearing and XTE",
      ok and {"distance", "bearingTrue", "crossTrackError"} <= calc.keys(), why or body)
ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=self", timeout=5)
ws.recv()
paths = set()
for _ in range(40):
    paths |= {v["path"] for u in json.loads(ws.recv()).get("updates", []) for v in u.get("values", [])}
ws.close()
wanted = {"navigation.course.nextPoint", "navigation.course.calcValues.bearingTrue",
          "navigation.course.calcValues.crossTrackError", "navigation.course.calcValues.distance",
          "navigation.course.calcValues.timeToGo"}
check("the stream carries the paths KIP's widgets read (navigation.course.calcValues.*)", wanted <= paths,
      sorted(wanted - paths))
status, _, body = request("PUT", COURSE + "/destination", {"position": {"latitude": 50.70, "longitude": -1.10}})
check("PUT destination: a position", status == 200, body)
time.sleep(1.2)
status, _, body = request("GET", COURSE)
course = json.loads(body)
ok, why = valid("CourseInfo", course)
point = (course.get("nextPoint") or {})
check("GET course: the destination as a Location, no route, previous point the vessel's position",
      ok and point.get("type") == "Location" and point["position"] == {"latitude": 50.7, "longitude": -1.1}
      and course.get("activeRoute") is None and (course.get("previousPoint") or {}).get("type") == "VesselPosition",
      why or body)
status, _, body = request("PUT", COURSE + "/destination", {"position": {"latitude": 95, "longitude": 0}})
check("PUT destination beyond the pole: 400", status == 400, body)
status, _, body = request("DELETE", COURSE)
time.sleep(1.2)
status2, _, body2 = request("GET", COURSE)
check("DELETE course: cleared", status == 200 and json.loads(body2).get("nextPoint") is None, body + body2)
status, _, body = request("PUT", COURSE + "/activeRoute", {"href": route_href})
time.sleep(1.2)
_, _, after = request("GET", COURSE)
check("PUT activeRoute with the route's href follows the route again from its start",
      status == 200 and (json.loads(after).get("activeRoute") or {}).get("href") == route_href
      and json.loads(after)["activeRoute"]["pointIndex"] == 1, body + after)
status, _, body = request("PUT", COURSE + "/activeRoute", {"href": "/resources/routes/elsewhere"})
check("PUT activeRoute with an href that is not a resource's: 400", status == 400, body)
status, _, body = request("PUT", COURSE + "/activeRoute",
                          {"href": "/resources/routes/00000000-0000-4000-8000-000000000000"})
check("PUT activeRoute with the href of no route kept: 404", status == 404, body)


def course_after(method, action, body=None):
    status, _, answer = request(method, COURSE + action, body)
    time.sleep(1.2)
    _, _, after = request("GET", COURSE)
    info = json.loads(after)
    ok, why = valid("CourseInfo", info)
    return status, answer, info, ok, why


status, answer, info, ok, why = course_after("PUT", "/activeRoute/pointIndex", {"value": 2})
total = (info.get("activeRoute") or {}).get("pointTotal", 0)
check("PUT activeRoute/pointIndex 2: the next point is the route's third, valid CourseInfo (course/index.ts)",
      status == 200 and ok and info["activeRoute"]["pointIndex"] == 2
      and (info.get("previousPoint") or {}).get("type") == "RoutePoint", why or answer + json.dumps(info)[:300])
status, answer, info, ok, why = course_after("PUT", "/activeRoute/nextPoint", {"value": -1})
check("PUT activeRoute/nextPoint -1: back to point 1", status == 200 and ok and info["activeRoute"]["pointIndex"] == 1,
      why or answer)
status, answer, info, ok, why = course_after("PUT", "/restart")
check("PUT restart: the leg from where the boat is (previousPoint a VesselPosition), XTE from there (course/index.ts)",
      status == 200 and ok and (info.get("previousPoint") or {}).get("type") == "VesselPosition", why or answer)
_, _, calc = request("GET", COURSE + "/calcValues")
check("and the cross-track error after a restart is near zero",
      abs(json.loads(calc).get("crossTrackError", 99)) < 30, calc[:300])
status, answer, info, ok, why = course_after("PUT", "/activeRoute/reverse")
check("PUT activeRoute/reverse: backwards to the point last passed, reverse true, the index from the far end",
      status == 200 and ok and info["activeRoute"]["reverse"] is True
      and info["activeRoute"]["pointIndex"] == total - 1, why or answer + json.dumps(info)[:300])
request("PUT", COURSE + "/activeRoute/reverse")
status, answer, info, ok, why = course_after("PUT", "/arrivalCircle", {"value": 150})
check("PUT arrivalCircle 150: the course says 150 m (course/index.ts)", status == 200 and ok
      and info.get("arrivalCircle") == 150, why or answer)
status, _, answer = request("PUT", COURSE + "/arrivalCircle", {"value": -3})
check("PUT arrivalCircle -3: 400 (course/index.ts: isValidArrivalCircle)", status == 400, answer)
request("PUT", COURSE + "/activeRoute", {"href": route_href})

# 4. Alarms as KIP changes them (src/put.ts: putNotification, the keys `method` and `state`).
time.sleep(1)
status, _, body = request("GET", "/signalk/v1/api/vessels/self/notifications/heel/over")
alarm = json.loads(body).get("value", {}) if status == 200 else {}
check("the over-heel alarm (1°) is up, sounding", alarm.get("state") == "alarm" and "sound" in alarm.get("method", []),
      body)
status, _, body = request("PUT", "/signalk/v1/api/vessels/self/notifications/heel/over/method",
                          {"value": ["visual"]})
time.sleep(1.2)
_, _, after = request("GET", "/signalk/v1/api/vessels/self/notifications/heel/over")
check("PUT method [\"visual\"]: 200, and the alarm is silent",
      status == 200 and "sound" not in json.loads(after)["value"]["method"], body + after)
status, _, body = request("PUT", "/signalk/v1/api/vessels/self/notifications/heel/over/state", {"value": "normal"})
check("PUT state \"normal\": 200 (cleared)", status == 200, body)
status, _, body = request("PUT", "/signalk/v1/api/vessels/self/notifications/heel/over/state", {"value": "alarm"})
check("PUT state other than normal: 400", status == 400, body)

# 5. WebSocket requests (ws.ts: processPutRequest with msg.context, processRequestQuery).
ws = websocket.create_connection(f"ws://127.0.0.1:{web}/signalk/v1/stream?subscribe=none", timeout=5)
ws.recv()
ws.send(json.dumps({"context": "vessels.urn:mrn:imo:mmsi:230000000", "requestId": "a1",
                    "put": {"path": "telltale.route.command", "value": "stop"}}))
reply = json.loads(ws.recv())
check("a PUT to another vessel's context is refused", reply.get("requestId") == "a1" and reply.get("statusCode") == 405,
      reply)
ws.send(json.dumps({"requestId": "a2", "put": {"path": "notifications.heel.over.method", "value": ["visual"]}}))
reply = json.loads(ws.recv())
ws.send(json.dumps({"requestId": "a2", "query": True}))
queried = json.loads(ws.recv())
check("a query for a request answers its state", queried.get("requestId") == "a2"
      and queried.get("statusCode") == reply.get("statusCode") and queried.get("state") == "COMPLETED", queried)
ws.send(json.dumps({"requestId": "nope", "query": True}))
check("a query for an unknown request: 404", json.loads(ws.recv()).get("statusCode") == 404)
ws.close()

# 6. CORS preflight (src/cors.ts: the cors module's defaults).
status, head, _ = request("OPTIONS", "/signalk/v1/api/vessels/self/notifications/heel/over/method",
                          headers={"Origin": "http://kip.example", "Access-Control-Request-Method": "PUT",
                                   "Access-Control-Request-Headers": "content-type"})
check("OPTIONS preflight: 204, PUT allowed, any origin", status == 204 and "PUT" in head
      and "Access-Control-Allow-Origin: *" in head, head)

# The stream that never answered its ping.
watcher.join(timeout=90)
check(f"a silent stream is pinged after 30 s ({silent_stream.get('ping', 0):.0f} s) and dropped a ping interval "
      f"later ({silent_stream.get('closed', 0):.0f} s)",
      29 <= silent_stream.get("ping", 0) <= 33 and 58 <= silent_stream.get("closed", 0) <= 64, silent_stream)
check("the gateway is still up", gateway.alive())
gateway.stop()

# 7. Device access (src/tokensecurity.ts: access requests; ws.ts: processAccessRequest). A gateway that takes
# changes from 127.0.0.1 only (the Pi's own shell); the phone is 127.0.0.5. Its state folder keeps the devices.
guarded = free_port()
state = tempfile.mkdtemp(prefix="telltale-access-")
secured = Gateway(binary, f"""talker = "II"
route = "{demo}/route.gpx"
status_line = false
state_file = "{state}/state.toml"

{demo_input(loop=True, speed=2)}
[web]
listen = "127.0.0.1:{guarded}"
put_networks = ["127.0.0.1/32"]
""").start(wait=[guarded])
PHONE = "127.0.0.5"
ROUTE = "/signalk/v1/api/vessels/self/telltale/route/command"
time.sleep(1.5)
status, _, body = request("PUT", ROUTE, {"value": "stop"}, source=PHONE, port=guarded)
time.sleep(1.2)
_, _, after = request("GET", COURSE, port=guarded)
check("an unapproved device's PUT is refused 401 and changes nothing",
      status == 401 and json.loads(after).get("nextPoint") is not None, body)
status, _, body = request("POST", "/signalk/v1/access/requests",
                          {"clientId": "kip-anna", "description": "KIP on Anna's phone", "permissions": "readwrite"},
                          source=PHONE, port=guarded)
asked = json.loads(body) if status == 202 else {}
check("POST access/requests: 202 PENDING with its href", asked.get("state") == "PENDING"
      and asked.get("href") == "/signalk/v1/requests/" + asked.get("requestId", "?"), body)


def access(*words):
    result = subprocess.run([binary, "access", *words, "--port", str(guarded)], capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


code, listing = access("list")
check("telltale access list shows the request, its address and description",
      code == 0 and "pending" in listing and PHONE in listing and "KIP on Anna's phone" in listing, listing)
status, _, body = request("PUT", "/telltale/v1/access/requests/" + asked.get("requestId", "?"), {"value": "approve"},
                          source=PHONE, port=guarded)
check("the phone cannot approve itself (401)", status == 401, body)
code, said = access("approve", asked.get("requestId", "?")[:6])
check("telltale access approve (by the id's first characters)", code == 0 and "approved" in said, said)
status, _, body = request("GET", asked.get("href", "/"), source=PHONE, port=guarded)
answer = json.loads(body) if status == 200 else {}
token = (answer.get("accessRequest") or {}).get("token", "")
check("GET the request: COMPLETED, APPROVED, with a token",
      answer.get("state") == "COMPLETED" and answer["accessRequest"].get("permission") == "APPROVED" and token, body)
status, _, body = request("PUT", COURSE + "/destination", {"position": {"latitude": 50.7, "longitude": -1.1}},
                          source=PHONE, port=guarded, headers={"Authorization": "Bearer " + token})
check("with the token the phone sets a destination", status == 200, body)
secured.stop()
secured.start(wait=[guarded])
time.sleep(1.5)
status, _, body = request("PUT", ROUTE, {"value": "start"}, source=PHONE, port=guarded,
                          headers={"Authorization": "Bearer " + token})
check("after a restart the approved device still may (the state folder kept it)", status == 200, body)
check("the approvals are kept readable by the gateway only",
      oct(os.stat(os.path.join(state, "access.json")).st_mode & 0o777) == "0o600")
ws = websocket.create_connection(f"ws://127.0.0.1:{guarded}/signalk/v1/stream?subscribe=none", timeout=5,
                                 source_address=(PHONE, 0))
ws.recv()
ws.send(json.dumps({"requestId": "w1", "accessRequest": {"clientId": "wilhelm", "description": "WilhelmSK",
                                                         "permissions": "readwrite"}}))
first = json.loads(ws.recv())
code, listing = access("list")
pending_id = next((line.split()[1] for line in listing.splitlines() if "WilhelmSK" in line and "pending" in line), "")
code, said = access("approve", pending_id)
second = json.loads(ws.recv())
ws.send(json.dumps({"requestId": "w2", "put": {"path": "telltale.route.command", "value": "advance"}}))
put_reply = json.loads(ws.recv())
ws.close()
check("accessRequest on the stream: PENDING, then COMPLETED with a token when approved, and the stream may PUT",
      first.get("state") == "PENDING" and second.get("requestId") == "w1" and second.get("state") == "COMPLETED"
      and (second.get("accessRequest") or {}).get("token") and put_reply.get("statusCode") in (200, 409),
      (first, second, put_reply))
code, said = access("revoke", "kip-anna")
status, _, body = request("PUT", ROUTE, {"value": "start"}, source=PHONE, port=guarded,
                          headers={"Authorization": "Bearer " + token})
check("telltale access revoke: the token no longer works (401)", code == 0 and status == 401, said + body)
secured.stop()
checks.finish()
