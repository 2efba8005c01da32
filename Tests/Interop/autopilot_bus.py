"""The Autopilot API's commands on a bus (#41): the gateway on a Yacht Devices gateway's TCP RAW protocol (the one
`[n2k] bus = "ydraw+tcp://..."` speaks), behind which this script plays the recorded EV-1/ACU200 bus in a loop and
the pilot (address 204) answers what it is told: every frame the gateway writes is read by PyPI's `nmea2000`
(canboat's database), and only what that decoder reads as the right PGN and fields changes the pilot's mode or
heading, which it then reports in its own PGNs (65379 mode, 65360 locked heading) as an Evolution does. The demo
voyage with its polar gives the wind for a tack; the expected tack is worked out here from the polar file.
"""
import json
import math
import os
import select
import socket
import statistics
import tempfile
import threading
import time

from nmea2000.decoder import NMEA2000Decoder

from support import ROOT, Gateway, OutputReader, free_port, wait_for

PILOT = 204
KEEP = {59904, 60928, 126993, 126996, 126998, 126464, 127237}


def identifier(priority, pgn, source, destination=255):
    if (pgn >> 8) & 0xFF < 240:
        pgn = (pgn & 0x3FF00) | destination
    return priority << 26 | pgn << 8 | source


def recorded_frames(path):
    """The recording's frames a pilot's bus keeps (claims, products, heartbeats, the pilot's 127237 and proprietary
    frames), its own pilot reports left out: the pilot below makes those."""
    frames = []
    for line in open(path):
        parts = line.split()
        if len(parts) != 3 or "#" not in parts[2]:
            continue
        ident, data = parts[2].split("#")
        ident = int(ident, 16)
        pgn = (ident >> 8) & 0x3FFFF
        if (pgn >> 8) & 0xFF < 240:
            pgn &= 0x3FF00
        if pgn in (65379, 65360, 65345):
            continue
        if pgn in KEEP or 65280 <= pgn < 65536 and (ident & 0xFF) != PILOT:
            frames.append((float(parts[0].strip("()")), ident, bytes.fromhex(data)))
    start = frames[0][0]
    return [(t - start, i, d) for t, i, d in frames]


class PilotBus(threading.Thread):
    """A Yacht Devices gateway in RAW mode over TCP with the recorded bus and a pilot behind it."""

    def __init__(self, recording):
        super().__init__(daemon=True)
        self.frames = recorded_frames(recording)
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.port = self.server.getsockname()[1]
        self.decoder = NMEA2000Decoder()
        self.lock = threading.Lock()
        self.sent = []  # (monotonic time, message) decoded from what the gateway wrote
        self.frames_in = []  # (monotonic time, pgn, source, destination)
        self.mode = 0  # SEATALK_PILOT_MODE_16
        self.heading = math.radians(123.4)  # the locked heading, magnetic
        self.wind = math.radians(40)
        self.silent = False
        # A pilot that hears commands and does not take them (a fault, another controller holding it).
        self.ignore = False
        self.stopped = False

    def line(self, ident, data):
        now = time.gmtime()
        stamp = time.strftime("%H:%M:%S", now) + ".%03d" % int((time.time() % 1) * 1000)
        return f"{stamp} R {ident:08X} " + " ".join(f"{b:02X}" for b in data) + "\r\n"

    def reports(self):
        head = bytes([0x3B, 0x9F])
        mode = head + self.mode.to_bytes(2, "little") + b"\xff\xff\xff\xff"
        raw = int(round(self.heading * 10000)) & 0xFFFF
        heading = head + b"\xff" + b"\xff\xff" + raw.to_bytes(2, "little") + b"\xff"
        wind = head + (int(round((self.wind % (2 * math.pi)) * 10000)) & 0xFFFF).to_bytes(2, "little") + b"\xff" * 4
        return [(identifier(2, 65379, PILOT), mode), (identifier(2, 65360, PILOT), heading),
                (identifier(2, 65345, PILOT), wind)]

    def take(self, message):
        """What the pilot does with a message the decoder read: only its own commands change it."""
        fields = {f.id: f for f in message.fields}
        if self.ignore:
            return
        if message.PGN == 126208 and message.destination == PILOT:
            pairs = {p["parameter"].raw_value: p["value"] for p in fields["##list##"].value}
            target = fields["pgn"].raw_value
            if fields["functionCode"].value == "Command" and 1 in pairs and pairs[1].raw_value == 1851:
                if target == 65379 and 4 in pairs:
                    self.mode = int(pairs[4].raw_value)
                elif target == 65360 and 6 in pairs:
                    self.heading = float(pairs[6].raw_value)
                elif target == 65345 and 4 in pairs:
                    self.wind = float(pairs[4].raw_value)
        elif message.PGN == 126720 and fields.get("seatalk1Command") and fields["seatalk1Command"].value == "Keystroke":
            step = {"+1": 1, "-1": -1, "+10": 10, "-10": -10}.get(fields["key"].value, 0)
            if self.mode == 256:
                self.wind += math.radians(step)
            else:
                self.heading = (self.heading + math.radians(step)) % (2 * math.pi)

    def run(self):
        connection, _ = self.server.accept()
        connection.setblocking(False)
        started = time.monotonic()
        index = 0
        loop_start = started
        next_report = started
        buffer = b""
        while not self.stopped:
            now = time.monotonic()
            out = ""
            while index < len(self.frames) and loop_start + self.frames[index][0] <= now:
                _, ident, data = self.frames[index]
                if not (self.silent and (ident & 0xFF) == PILOT):
                    out += self.line(ident, data)
                index += 1
            if index >= len(self.frames):
                index, loop_start = 0, now
            if now >= next_report and not self.silent:
                next_report = now + 0.5
                with self.lock:
                    for ident, data in self.reports():
                        out += self.line(ident, data)
            if out:
                try:
                    connection.sendall(out.encode())
                except OSError:
                    return
            ready, _, _ = select.select([connection], [], [], 0.01)
            if ready:
                try:
                    chunk = connection.recv(65536)
                except OSError:
                    return
                if not chunk:
                    return
                buffer += chunk
                while b"\n" in buffer:
                    raw, buffer = buffer.split(b"\n", 1)
                    self.gateway_frame(raw.decode(errors="replace").strip())

    def gateway_frame(self, text):
        parts = text.split()
        if not parts:
            return
        try:
            ident = int(parts[0], 16)
            data = bytes(int(b, 16) for b in parts[1:])
        except ValueError:
            return
        now = time.monotonic()
        pgn = (ident >> 8) & 0x3FFFF
        destination = 255
        if (pgn >> 8) & 0xFF < 240:
            destination = pgn & 0xFF
            pgn &= 0x3FF00
        with self.lock:
            self.frames_in.append((now, pgn, ident & 0xFF, destination))
        try:
            message = self.decoder.decode(f"({time.time():.6f}) can0 {ident:08X}#{data.hex().upper()}")
        except Exception:  # noqa: BLE001 (a frame the reference cannot read is counted by the checks that want it)
            message = None
        if message is not None and message.PGN in (126208, 126720, 130850):
            with self.lock:
                self.sent.append((now, message))
                self.take(message)


def polar_beat(path, tws_knots):
    """The polar's beat angle at this true wind speed, worked out here: the angle of the best speed towards the
    wind, the table read with straight lines between its rows and columns (0.1° steps)."""
    rows = [line.strip().split(";") for line in open(path) if line.strip()]
    speeds = [float(v) for v in rows[0][1:]]
    table = [(float(r[0]), [float(v) for v in r[1:]]) for r in rows[1:]]

    def along(xs, ys, x):
        if x <= xs[0]:
            return ys[0]
        for i in range(1, len(xs)):
            if x <= xs[i]:
                f = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
                return ys[i - 1] + f * (ys[i] - ys[i - 1])
        return ys[-1]

    def speed(twa):
        angles = [a for a, _ in table]
        column = [along(speeds, values, tws_knots) for _, values in table]
        return along(angles, column, twa)

    best, angle = -1, None
    for tenth in range(200, 900):
        twa = tenth / 10
        vmg = speed(twa) * math.cos(math.radians(twa))
        if vmg > best:
            best, angle = vmg, twa
    return angle


def commanding(binary, checks, recording):
    bus = PilotBus(recording)
    bus.start()
    web, sentences = free_port(), free_port()
    demo = os.path.join(ROOT, "Fixtures", "demo-voyage")
    gateway = Gateway(binary, f"""status_line = false
polar = "{demo}/polar.csv"
route = "{demo}/route.gpx"

[[output]]
name = "tiller"
url = "tcp://127.0.0.1:{sentences}"
autopilot = true

[[input]]
name = "demo-voyage"
url = "file:{demo}/voyage.nmea"
loop = true

[n2k]
bus = "ydraw+tcp://127.0.0.1:{bus.port}"

[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
""", work=tempfile.mkdtemp(prefix="telltale-autopilot-bus-")).start(wait=[web, sentences])
    tiller = OutputReader(sentences)

    def request(method, path, body=None, source="127.0.0.1"):
        s = socket.create_connection(("127.0.0.1", web), timeout=5, source_address=(source, 0))
        data = json.dumps(body).encode() if body is not None else b""
        s.sendall(f"{method} {path} HTTP/1.1\r\nHost: boat\r\nConnection: close\r\n"
                  f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
        reply = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            reply += chunk
        s.close()
        head, _, payload = reply.partition(b"\r\n\r\n")
        status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else 0
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, payload.decode(errors="replace")

    API = "/signalk/v2/api/vessels/self/autopilots"
    DEVICE = API + f"/raymarine-{PILOT}"

    def status():
        code, body = request("GET", DEVICE)
        return body if code == 200 and isinstance(body, dict) else {}

    def value(path):
        code, body = request("GET", "/signalk/v1/api/vessels/self/" + path.replace(".", "/"))
        return body.get("value") if code == 200 and isinstance(body, dict) else None

    latencies = []

    def command(method, action, body=None, source="127.0.0.1", expect=None):
        """A command, the messages the decoder read from the gateway after it, and the latency to the first."""
        with bus.lock:
            before = len(bus.sent)
        sent_at = time.monotonic()
        code, answer = request(method, DEVICE + "/" + action, body, source=source)
        if expect is not None:
            wait_for(lambda: len(bus.sent) - before >= expect, 3, step=0.02)
        else:
            time.sleep(0.5)
        with bus.lock:
            new = bus.sent[before:]
        if new and code == 200:
            latencies.append((new[0][0] - sent_at) * 1000)
        return code, answer, [m for _, m in new]

    def pairs(message):
        fields = {f.id: f for f in message.fields}
        return fields["pgn"].raw_value, {p["parameter"].raw_value: p["value"] for p in fields["##list##"].value}

    heard = wait_for(lambda: status().get("state") == "standby", 20)
    checks(heard, "on the Yacht Devices gateway: the pilot behind it heard, in standby", status())
    code, features = request("GET", "/signalk/v2/features")
    checks(code == 200 and "autopilot" in features.get("apis", []), "the features list the Autopilot API", features)
    # The gateway's own address claimed before anything is sent.
    wait_for(lambda: any(pgn == 60928 for _, pgn, _, _ in bus.frames_in), 5)

    code, answer, sent = command("POST", "engage", source="127.0.0.5")
    checks(code == 401 and not sent, "an unapproved device (127.0.0.5): 401 and nothing on the bus", (code, answer))

    code, answer, sent = command("POST", "engage", expect=1)
    ok = code == 200 and len(sent) == 1 and sent[0].PGN == 126208 and sent[0].destination == PILOT
    target, fields = pairs(sent[0]) if ok else (None, {})
    checks(ok and target == 65379 and str(fields.get(4).value) == "Auto, compass commanded",
           "engage: nmea2000 reads a 126208 command to the pilot setting 65379's mode to auto (compass)",
           (code, answer, [str(m) for m in sent]))
    confirmed = wait_for(lambda: status().get("state") == "auto" and status().get("mode") == "compass", 5)
    checks(confirmed, "the pilot's own 65379 comes back: the API says auto, compass", status())

    code, answer, sent = command("PUT", "target", {"value": 100, "units": "deg"}, expect=1)
    ok = code == 200 and sent and sent[0].PGN == 126208
    target, fields = pairs(sent[0]) if ok else (None, {})
    checks(ok and target == 65360 and abs(float(fields[6].raw_value) - math.radians(100)) < 0.001,
           "target 100°: 65360's magnetic heading set to 1.7453 rad", (code, [str(m) for m in sent]))
    wait_for(lambda: abs((status().get("target") or 0) - math.radians(100)) < 0.001, 5)
    checks(abs((status().get("target") or 0) - math.radians(100)) < 0.001, "and the pilot's target comes back",
           status())

    code, answer, sent = command("PUT", "target/adjust", {"value": -12, "units": "deg"}, expect=3)
    keys = [str({f.id: f.value for f in m.fields}.get("key")) for m in sent if m.PGN == 126720]
    checks(code == 200 and keys == ["-10", "-1", "-1"], "adjust −12°: the p70's keys −10, −1, −1 (126720)",
           (code, keys))
    wait_for(lambda: abs((status().get("target") or 0) - math.radians(88)) < 0.001, 5)
    checks(abs((status().get("target") or 0) - math.radians(88)) < 0.001, "the pilot now holds 88°", status())

    bad = [("PUT", "target", {"value": "north"}), ("PUT", "target", {"value": 1000, "units": "deg"}),
           ("PUT", "target/adjust", {"value": 0}), ("PUT", "target/adjust", {"value": 3.0}),
           ("PUT", "mode", {"value": "banana"}), ("PUT", "state", {"value": "maybe"}),
           ("PUT", "dodge", {"value": 100, "units": "deg"}), ("POST", "tack/sideways", None)]
    answers = [command(m, a, b)[:2] for m, a, b in bad]
    with bus.lock:
        before = len(bus.sent)
    time.sleep(0.3)
    checks(all(c in (400, 404) for c, _ in answers) and [c for c, _ in answers].count(400) == 7
           and len(bus.sent) == before, "nonsense targets, modes and states: 400 (an unknown command 404), nothing "
           "sent", answers)

    # A tack onto the polar's beat angle for the true wind now.
    twa = value("environment.wind.angleTrueWater")
    # A tack turns the bow through the wind: to starboard with the wind on the starboard side.
    side = "starboard" if twa is not None and twa > 0 else "port"
    tws, twd, heading = (value("environment.wind.speedTrue"), value("environment.wind.directionTrue"),
                         value("navigation.headingTrue"))
    held = status().get("target")
    code, answer, sent = command("POST", "tack/" + side, expect=1)
    if None in (twa, tws, twd, heading, held) or code != 200 or not sent:
        checks(False, "a tack on the demo voyage with the polar", (twa, tws, twd, heading, held, code, answer))
    else:
        target, fields = pairs(sent[0])
        commanded = float(fields[6].raw_value)
        change = math.degrees((commanded - held + math.pi) % (2 * math.pi) - math.pi)
        beat = polar_beat(os.path.join(demo, "polar.csv"), tws * 3600 / 1852)
        after = -beat if twa > 0 else beat
        expected = (math.degrees(twd) - after - math.degrees(heading) + 180) % 360 - 180
        checks(target == 65360 and abs(change - expected) < 2,
               f"tack to {side} (TWA {math.degrees(twa):.1f}°, TWS {tws * 3600 / 1852:.1f} kn): the heading held moves "
               f"{change:.1f}°, the polar's beat of {beat:.1f}° on the other tack says {expected:.1f}° (within 2°)",
               (change, expected, answer))
    wrong = "starboard" if side == "port" else "port"
    code, answer, sent = command("POST", "tack/" + wrong)
    checks(code == 409 and not sent, f"a tack to {wrong} with the wind on that side: 409, nothing sent", (code, answer))

    code, answer, sent = command("PUT", "mode", {"value": "wind"}, expect=1)
    target, fields = pairs(sent[0]) if sent else (None, {})
    checks(code == 200 and target == 65379 and str(fields[4].value) == "Vane, Wind Mode", "mode wind: 65379 256",
           (code, [str(m) for m in sent]))
    wait_for(lambda: status().get("mode") == "wind", 5)
    code, answer, sent = command("PUT", "target", {"value": -35, "units": "deg"}, expect=1)
    target, fields = pairs(sent[0]) if sent else (None, {})
    checks(code == 200 and target == 65345 and abs(float(fields[4].raw_value) - math.radians(325)) < 0.001,
           "in wind mode the target is the wind datum (65345): −35° as 325°", (code, [str(m) for m in sent]))

    code, answer, sent = command("POST", "disengage", expect=1)
    target, fields = pairs(sent[0]) if sent else (None, {})
    checks(code == 200 and target == 65379 and str(fields[4].value) == "Standby", "disengage: 65379 standby",
           (code, [str(m) for m in sent]))
    wait_for(lambda: status().get("state") == "standby", 5)
    checks(status().get("state") == "standby" and status().get("engaged") is False, "and the pilot says standby",
           status())

    # The pilot drops to standby on its own (its standby key, a clutch overload): the autopilot alarm, as a Signal K
    # notification; engaged again it clears; then it falls silent while steering: off-line, the alarm again.
    def alarm():
        notification = value("notifications.steering.autopilot.state")
        return notification if isinstance(notification, dict) else {}

    command("POST", "engage", expect=1)
    wait_for(lambda: status().get("state") == "auto", 5)
    # The disengage asked above is 5 s behind (a standby asked for through Telltale is no alarm).
    time.sleep(5)
    with bus.lock:
        bus.mode = 0
    raised = wait_for(lambda: alarm().get("state") == "alarm", 10)
    checks(raised and "standby" in alarm().get("message", "") and "sound" in alarm().get("method", []),
           "the pilot dropping to standby by itself raises notifications.steering.autopilot.state (alarm, sound)",
           alarm())
    command("POST", "engage", expect=1)
    cleared = wait_for(lambda: alarm().get("state") == "normal", 10)
    checks(cleared, "engaged again, the alarm clears", alarm())
    wait_for(lambda: status().get("state") == "auto", 5)
    time.sleep(1.5)
    # The pilot falls silent while steering: off-line, the alarm, and a command is not sent (no retries either).
    bus.silent = True
    offline = wait_for(lambda: status().get("state") == "off-line", 20, step=0.5)
    with bus.lock:
        before = len(bus.sent)
    code, answer = request("POST", DEVICE + "/engage")
    time.sleep(2)
    with bus.lock:
        after = len(bus.sent)
    checks(offline and code == 409 and after == before, "the pilot silent: off-line, a command 409 and nothing sent "
           "(no retry)", (offline, code, answer))
    checks(alarm().get("state") == "alarm" and "off-line" in alarm().get("message", ""),
           "off-line while steering: the alarm says so", alarm())
    # An NMEA 0183 pilot on the output `tiller`: listed with what it can be asked, the rest refused with why.
    import pynmea2
    code, devices = request("GET", API)
    code, tiller_status = request("GET", API + "/nmea0183-tiller")
    actions = [a.get("id") for a in (tiller_status.get("options", {}).get("actions", [])
                                     if isinstance(tiller_status, dict) else [])]
    checks("nmea0183-tiller" in devices and actions == ["courseNextPoint"]
           and tiller_status.get("options", {}).get("modes") == ["route", "wind"] and tiller_status.get("state") is None,
           "the 0183 pilot on the output `tiller` is listed: modes route and wind, one action (the next point), its "
           "state unknown (it says nothing back)", tiller_status)

    def destination():
        for text in reversed(tiller.texts()[-40:]):
            if "APB," in text:
                try:
                    return pynmea2.parse(text).dest_waypoint_id
                except pynmea2.ParseError:
                    continue
        return None

    wait_for(lambda: destination() is not None, 10)
    first = destination()
    with bus.lock:
        before = len(bus.sent)
    code, answer = request("POST", API + "/nmea0183-tiller/engage")
    checks(code == 409 and "own control" in str(answer) and len(bus.sent) == before,
           "engaging it is refused 409, saying why (it is engaged at its own control); nothing sent", answer)
    code, answer = request("POST", API + "/nmea0183-tiller/courseNextPoint")
    moved = wait_for(lambda: destination() not in (None, first), 10)
    checks(code == 200 and moved, f"the next point: the APB it is sent (pynmea2) goes from {first} to {destination()}",
           (code, answer))
    tiller.stop()
    with bus.lock:
        commands = [(t, p) for t, p, s, d in bus.frames_in if p in (126208, 126720, 130850)]
    if latencies:
        print(f"autopilot-check: PUT to first frame {statistics.median(latencies):.1f} ms median, "
              f"{max(latencies):.1f} ms worst over {len(latencies)} commands; {len(commands)} command frames")
    # The latency is a figure for Benchmarks/autopilot.sh, not a pass mark here.
    bus.stopped = True
    gateway.stop()
    log = gateway.log()
    checks("announce: autopilot in standby, steer by hand" in log and "announce: autopilot off-line" in log,
           "both said aloud (the words the voice speaks, in the log)", log[-600:])
