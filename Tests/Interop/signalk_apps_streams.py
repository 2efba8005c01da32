"""Signal K subscriptions as the crew's apps ask for them (signalk_apps_check.py, section 2b): every parameter of
subscribe and unsubscribe, context matching, policies, against src/subscriptionmanager.ts and the specification."""
import json
import time

import websocket


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


def subscriptions(check, gateway, web):
    """2b. Subscriptions with every parameter (src/subscriptionmanager.ts: subscribe, unsubscribe, contextMatcher; the
    specification's subscription_protocol.md where the reference does less), on one stream that starts with nothing."""
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
