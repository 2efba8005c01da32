"""The gateway on a Yacht Devices gateway's TCP RAW protocol with a pilot behind it (`autopilot_bus.PilotBus`), as
the commands' phases see it: the gateway, its HTTP requests, the pilot's status through the Autopilot API and the
messages the decoder read from what the gateway wrote after each command (autopilot_commands.py,
autopilot_pilots.py)."""
import json
import os
import statistics
import tempfile
import time

from autopilot_bus import PILOT, PilotBus
from support import ROOT, Gateway, OutputReader, demo_input, free_port, wait_for
from webclient import HTTP

DEMO = os.path.join(ROOT, "Fixtures", "demo-voyage")
API = "/signalk/v2/api/vessels/self/autopilots"
DEVICE = API + f"/raymarine-{PILOT}"


class Desk:
    """The demo voyage with its polar and route, an autopilot output `tiller` and the pilot's bus."""

    def __init__(self, binary, checks, recording):
        self.checks, self.recording = checks, recording
        self.bus = PilotBus(recording)
        self.bus.start()
        self.web, sentences = free_port(), free_port()
        self.gateway = Gateway(binary, f"""status_line = false
polar = "{DEMO}/polar.csv"
route = "{DEMO}/route.gpx"

[[output]]
name = "tiller"
url = "tcp://127.0.0.1:{sentences}"
autopilot = true

{demo_input(loop=True)}
[n2k]
bus = "ydraw+tcp://127.0.0.1:{self.bus.port}"

[web]
listen = "127.0.0.1:{self.web}"
put_networks = ["127.0.0.1/32"]
""", work=tempfile.mkdtemp(prefix="telltale-autopilot-bus-")).start(wait=[self.web, sentences])
        self.tiller = OutputReader(sentences)
        self.latencies = []

    def request(self, method, path, body=None, source="127.0.0.1"):
        """One request from `source` (webclient's): the status and the body as JSON, or as text when it is not."""
        status, _, payload = HTTP(self.web).request(method, path, body=body, source=source)
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, payload.decode(errors="replace")

    def status(self):
        code, body = self.request("GET", DEVICE)
        return body if code == 200 and isinstance(body, dict) else {}

    def value(self, path):
        code, body = self.request("GET", "/signalk/v1/api/vessels/self/" + path.replace(".", "/"))
        return body.get("value") if code == 200 and isinstance(body, dict) else None

    def command(self, method, action, body=None, source="127.0.0.1", expect=None, seconds=3):
        """A command, the messages the decoder read from the gateway after it, and the latency to the first."""
        with self.bus.lock:
            before = len(self.bus.sent)
        sent_at = time.monotonic()
        code, answer = self.request(method, DEVICE + "/" + action, body, source=source)
        if expect is not None:
            wait_for(lambda: len(self.bus.sent) - before >= expect, seconds, step=0.02)
        else:
            time.sleep(0.5)
        with self.bus.lock:
            new = self.bus.sent[before:]
        if new and code == 200 and seconds <= 3:
            self.latencies.append((new[0][0] - sent_at) * 1000)
        return code, answer, [m for _, m in new]

    @staticmethod
    def pairs(message):
        fields = {f.id: f for f in message.fields}
        return fields["pgn"].raw_value, {p["parameter"].raw_value: p["value"] for p in fields["##list##"].value}


def commanding(binary, checks, recording):
    """Every command of the Autopilot API to the pilot on the bus, each read back by the reference decoder."""
    from autopilot_commands import commands_phase, tack_phase, wind_phase
    from autopilot_pilots import alarm_phase, nmea0183_phase, other_pilots_phase

    d = Desk(binary, checks, recording)
    other_pilots_phase(d)
    commands_phase(d)
    twa = tack_phase(d)
    wind_phase(d, twa)
    alarm_phase(d)
    nmea0183_phase(d)
    d.tiller.stop()
    with d.bus.lock:
        commands = [(t, p) for t, p, _, _ in d.bus.frames_in if p in (126208, 126720, 130850)]
    if d.latencies:
        print(f"autopilot-check: PUT to first frame {statistics.median(d.latencies):.1f} ms median, "
              f"{max(d.latencies):.1f} ms worst over {len(d.latencies)} commands; {len(commands)} command frames")
    # The latency is a figure for Benchmarks/autopilot.sh, not a pass mark here.
    d.bus.stopped = True
    d.gateway.stop()
    log = d.gateway.log()
    d.checks("announce: autopilot in standby, steer by hand" in log and "announce: autopilot off-line" in log,
           "both said aloud (the words the voice speaks, in the log)", log[-600:])


