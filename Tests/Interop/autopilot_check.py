"""The autopilot read from a real bus (#41): the EV-1/ACU200 recording of ../shared/fixtures/n2k/candumpSample3.txt
played as the gateway's NMEA 2000 bus (`[n2k] bus = "file://..."`, in real time); the Autopilot API v2 and
`steering.autopilot.*` against what PyPI's `nmea2000` (canboat's database) reads of the same recording; commands
refused with 501 while listening only; the pilot off-line once the recording has ended. Then the commands, through a
Yacht Devices gateway's TCP RAW protocol with the recorded bus behind it (`autopilot_bus.py`). Prints `autopilot-check: N passed,
M failed`.

    autopilot_check.py BINARY
"""
import os
import sys
import tempfile
import urllib.error
import urllib.request

from nmea2000.decoder import NMEA2000Decoder

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ROOT, Checks, Gateway, free_port, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402

binary = sys.argv[1]
checks = Checks("autopilot-check")
recording = os.path.join(ROOT, "..", "shared", "fixtures", "n2k", "candumpSample3.txt")
web = free_port()
work = tempfile.mkdtemp(prefix="telltale-autopilot-")

# The reference: the pilot mode each 65379 says, by nmea2000 over canboat's database.
decoder = NMEA2000Decoder()
modes = []
for line in open(recording):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    try:
        message = decoder.decode(line)
    except Exception:  # noqa: BLE001 (a line the reference cannot read is not ours to judge)
        continue
    if message is not None and message.PGN == 65379:
        fields = {f.id: f.value for f in message.fields}
        modes.append((message.source, str(fields.get("pilotMode"))))
reference_state = {"Standby": "standby", "Auto, compass commanded": "auto", "Vane, Wind Mode": "auto",
                   "Track Mode": "auto"}.get(modes[-1][1]) if modes else None
checks(modes and all(m == modes[0] for m in modes), f"nmea2000 reads the recording's pilot: {len(modes)} pilot modes "
       f"from address {modes[0][0] if modes else '?'}, {modes[0][1] if modes else '?'}", modes[:3])

gateway = Gateway(binary, f"""status_line = false
[n2k]
bus = "file://{recording}"
listen_only = true
[web]
listen = "127.0.0.1:{web}"
""", work=work).start(wait=[web])


def get(path):
    return HTTP(web, timeout=5).json(path)


API = "/signalk/v2/api/vessels/self/autopilots"
heard = wait_for(lambda: get(API)[1] not in ({}, None) and isinstance(get(API)[1], dict) and get(API)[1], 15)
status, devices = get(API)
checks(status == 200 and isinstance(devices, dict) and devices.get("raymarine-204", {}).get("isDefault") is True,
       "the Autopilot API lists the Raymarine pilot at 204 as the default", devices)
status, default = get(API + "/_providers/_default")
checks(status == 200 and default == {"id": "raymarine-204"}, "_providers/_default names it", default)
status, pilot = get(API + "/raymarine-204")
status, by_default = get(API + "/_default")
checks(status == 200 and isinstance(by_default, dict) and "id" not in by_default
       and by_default.get("options") == pilot.get("options") and "state" in by_default,
       "_default answers the default pilot's status, as signalk-server does", by_default)
checks(status == 200 and pilot.get("state") == reference_state and pilot.get("engaged") is False
       and "wind" in pilot.get("options", {}).get("modes", []),
       f"its status: {pilot.get('state') if isinstance(pilot, dict) else pilot} as nmea2000 reads the recording, "
       "not engaged, its modes", pilot)
status, state = get("/signalk/v1/api/vessels/self/steering/autopilot/state")
checks(status == 200 and state.get("value") == reference_state and state.get("$source") == "raymarine-204",
       "steering.autopilot.state in the model, its $source the pilot", state)
status, value = get(API + "/raymarine-204/state")
checks(status == 200 and value == {"value": reference_state}, "the state alone", value)
request = urllib.request.Request(f"http://127.0.0.1:{web}{API}/raymarine-204/engage", data=b"", method="POST")
try:
    urllib.request.urlopen(request, timeout=5)
    code = 200
except urllib.error.HTTPError as error:
    code = error.code
checks(code == 501, "listening only, a command is refused 501: the gateway cannot write to this bus", code)
status, _ = get(API + "/no-such-pilot")
checks(status == 404, "an unknown device: 404")
# The recording lasts some 17 s: then the pilot is not heard, and ten seconds on it is off-line.
offline = wait_for(lambda: get(API + "/raymarine-204")[1].get("state") == "off-line", 45, step=1)
checks(offline, "the recording over, the pilot goes off-line", get(API + "/raymarine-204"))
gateway.stop()
log = gateway.log()
checks("autopilot.offline" in log or "not heard any more" in log, "and the log says so", log[-400:])

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from autopilot_desk import commanding  # noqa: E402
from autopilot_pypilot import pypilot_phase  # noqa: E402
from autopilot_route import route_voyage  # noqa: E402

commanding(binary, checks, recording)
route_voyage(binary, checks, recording)
pypilot_phase(binary, checks)
checks.finish()
