"""Checks Telltale's Signal K server as the crew's apps use it (#27), message by message against the reference server.

Each check names the signalk-server file its expectation comes from (commit 9edfbf95). The gateway runs the demo
voyage on loopback; every attack is bounded in count and time. Prints 'signalk-apps-check: N passed, M failed'.

    signalk_apps_check.py BINARY
"""

import json
import os
import socket
import sys
import threading
import time

import jsonschema
import websocket

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ROOT, Checks, Gateway, free_port, demo_input  # noqa: E402
from webclient import HTTP  # noqa: E402
from signalk_apps_access import device_access  # noqa: E402
from signalk_apps_course import course_api  # noqa: E402
from signalk_apps_streams import subscriptions  # noqa: E402

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

subscriptions(check, gateway, web)

course_api(COURSE, check, request, valid, web)

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

device_access(COURSE, binary, check, demo, request)

checks.finish()
