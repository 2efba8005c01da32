"""Device access as the crew's apps ask for it (signalk_apps_check.py, section 7): src/tokensecurity.ts's access
requests and ws.ts's processAccessRequest, on a gateway that takes changes from 127.0.0.1 only."""
import json
import os
import subprocess
import tempfile
import time

import websocket

from support import Gateway, demo_input, free_port


def device_access(COURSE, binary, check, demo, request):
    """7. Device access: access requests, their approval, the phone's token."""
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
