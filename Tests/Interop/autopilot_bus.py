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
import urllib.error
import urllib.request

from nmea2000.decoder import NMEA2000Decoder

from support import ROOT, Gateway, OutputReader, free_port, wait_for, demo_input

PILOT = 204
KEEP = {59904, 60928, 126993, 126996, 126998, 126464, 127237}


def identifier(priority, pgn, source, destination=255):
    if (pgn >> 8) & 0xFF < 240:
        pgn = (pgn & 0x3FF00) | destination
    return priority << 26 | pgn << 8 | source


def fast_frames(ident, data, sequence=0):
    """A fast packet's frames for `data` (more than 8 bytes): the length in the first, 6 then 7 bytes a frame."""
    out = [bytes([sequence << 5, len(data)]) + data[:6]]
    rest, counter = data[6:], 1
    while rest:
        chunk = bytes([sequence << 5 | counter]) + rest[:7]
        out.append(chunk + b"\xff" * (8 - len(chunk)))
        rest, counter = rest[7:], counter + 1
    return [(ident, frame) for frame in out]


def other_pilots(path):
    """Two more pilots from susteranna2020's recorded bus (canboat's samples): its B&G/Simrad NAC at address 16 (its
    65305 status and mode reports and its 127237), and the same 127237 as if from a pilot known only by it, at 40."""
    frames = []
    seen = set()
    for line in open(path):
        parts = line.strip().split(",")
        if len(parts) < 7 or parts[3] != "16" or parts[2] not in ("65305", "127237"):
            continue
        data = bytes(int(b, 16) for b in parts[6:])
        if (parts[2], data) in seen:
            continue
        seen.add((parts[2], data))
        if parts[2] == "65305":
            frames.append((identifier(7, 65305, 16), data))
        elif not any(i & 0xFF == 40 for i, _ in frames):
            frames += fast_frames(identifier(2, 127237, 16), data, 1)
            frames += fast_frames(identifier(2, 127237, 40), data, 2)
    return frames


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
        # The bearing to the destination Telltale sends (129284), for a pilot in route mode.
        self.bearing = None
        self.silent = False
        # More pilots on the bus, said every half second (``other_pilots``).
        self.others = []
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
                    for ident, data in self.others:
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
        if message is not None and message.PGN == 129284:
            fields = {f.id: f for f in message.fields}
            bearing = fields.get("bearingPositionToDestinationWaypoint")
            with self.lock:
                self.bearing = bearing.raw_value if bearing is not None else None
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

{demo_input(loop=True)}
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

    def command(method, action, body=None, source="127.0.0.1", expect=None, seconds=3):
        """A command, the messages the decoder read from the gateway after it, and the latency to the first."""
        with bus.lock:
            before = len(bus.sent)
        sent_at = time.monotonic()
        code, answer = request(method, DEVICE + "/" + action, body, source=source)
        if expect is not None:
            wait_for(lambda: len(bus.sent) - before >= expect, seconds, step=0.02)
        else:
            time.sleep(0.5)
        with bus.lock:
            new = bus.sent[before:]
        if new and code == 200 and seconds <= 3:
            latencies.append((new[0][0] - sent_at) * 1000)
        return code, answer, [m for _, m in new]

    def pairs(message):
        fields = {f.id: f for f in message.fields}
        return fields["pgn"].raw_value, {p["parameter"].raw_value: p["value"] for p in fields["##list##"].value}

    heard = wait_for(lambda: status().get("state") == "standby", 20)
    checks(heard, "on the Yacht Devices gateway: the pilot behind it heard, in standby", status())
    susteranna = os.path.join(os.path.dirname(recording), "susteranna2020.raw")
    if os.path.exists(susteranna):
        with bus.lock:
            bus.others = other_pilots(susteranna)
        listed = wait_for(lambda: {"simrad-16", "nmea2000-40"} <= set(request("GET", API)[1]), 10)
        code, simrad = request("GET", API + "/simrad-16")
        checks(listed and simrad.get("state") == "standby", "susteranna's B&G/Simrad NAC (its 65305) and a pilot known "
               "only by its 127237 listed beside it; the NAC in standby as its reports say", simrad)
        _, first = request("GET", API + "/_providers/_default")
        code, _ = request("POST", API + "/_providers/_default/raymarine-204")
        _, chosen = request("GET", API + "/_providers/_default")
        _, listing = request("GET", API)
        checks(first == {"id": "simrad-16"} and code == 200 and chosen == {"id": "raymarine-204"}
               and listing.get("raymarine-204", {}).get("isDefault") is True,
               "the default pilot: the lowest address first (simrad-16), then the one the crew names "
               "(POST _providers/_default/raymarine-204)", (first, chosen))
        with bus.lock:
            before = len(bus.sent)
        code, _ = request("POST", API + "/simrad-16/engage")
        code2, _ = request("PUT", API + "/simrad-16/target/adjust", {"value": -10, "units": "deg"})
        code3, _ = request("PUT", API + "/nmea2000-40/mode", {"value": "route"})
        code4, _ = request("PUT", API + "/nmea2000-40/mode", {"value": "wind"})
        wait_for(lambda: len(bus.sent) - before >= 3, 3)
        with bus.lock:
            new = [m for _, m in bus.sent[before:]]
        fields = [{f.id: f.value for f in m.fields} for m in new]
        simnet = [f for m, f in zip(new, fields) if m.PGN == 130850]
        standard = [pairs(m) for m in new if m.PGN == 126208 and m.destination == 40]
        checks(code == 200 and code2 == 200 and len(simnet) == 2 and simnet[0].get("event") == "Heading mode"
               and simnet[0].get("address") == 16 and simnet[1].get("event") == "Change course"
               and simnet[1].get("direction") == "Port" and abs(simnet[1].get("angle", 0) - math.radians(10)) < 0.001,
               "the NAC engaged and turned 10° to port: 130850 AP commands (heading mode; change of course) to address "
               "16, as nmea2000 reads them", simnet)
        checks(code3 == 200 and code4 == 400 and len(standard) == 1 and standard[0][0] == 127237
               and str(standard[0][1][5].value) == "Track Control",
               "the standard pilot: route mode as 126208 into 127237's steering mode (track control); wind mode "
               "refused 400 (not one of its modes), nothing sent", standard)
        with bus.lock:
            bus.others = []
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
    asked = time.monotonic()
    code, answer, sent = command("POST", "tack/" + side, expect=1, seconds=10)
    with bus.lock:
        first = next((t for t, m in bus.sent[-len(sent):]), None) if sent else None
    checks(first is not None and first - asked >= 4.5 and "tacking to " + side + " in 5 seconds" in gateway.log(),
           "said aloud first (\"tacking to " + side + " in 5 seconds\"), sent when the countdown ends "
           f"({(first or asked) - asked:.1f} s)", answer)
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
    # A tack called off: any other command to the pilot within the countdown.
    with bus.lock:
        before = len(bus.sent)
    code, answer, _ = command("POST", "tack/" + side)
    code2, _, keys = command("PUT", "target/adjust", {"value": 1, "units": "deg"}, expect=1)
    time.sleep(6)
    with bus.lock:
        later = [m for _, m in bus.sent[before:]]
    checks(code == 200 and code2 == 200 and [m.PGN for m in later] == [126720] and "tacking to " + side + " called off" in gateway.log(),
           "a tack called off by another command within its countdown: only that command's key goes out, said",
           ([m.PGN for m in later], code, answer, code2))
    wrong = "starboard" if side == "port" else "port"
    code, answer, sent = command("POST", "tack/" + wrong)
    checks(code == 409 and not sent, f"a tack to {wrong} with the wind on that side: 409, nothing sent", (code, answer))

    code, answer, sent = command("PUT", "mode", {"value": "wind"}, expect=1)
    target, fields = pairs(sent[0]) if sent else (None, {})
    checks(code == 200 and target == 65379 and str(fields[4].value) == "Vane, Wind Mode", "mode wind: 65379 256",
           (code, [str(m) for m in sent]))
    wait_for(lambda: status().get("mode") == "wind", 5)
    with bus.lock:
        before = len(bus.sent)
    time.sleep(2.5)
    with bus.lock:
        after = len(bus.sent)
    checks(after == before, f"on a reach (TWA {math.degrees(twa or 0):.0f}°) wind mode holds the angle the pilot has: "
           "no polar angle sent (close-hauled or running it would be)", after - before)
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


def destination(lat, lon, bearing, metres):
    """The point `metres` from (lat, lon) on `bearing` (degrees), on a sphere: plenty for a few hundred metres."""
    R = 6371008.8
    p1, l1, b, d = math.radians(lat), math.radians(lon), math.radians(bearing), metres / R
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    return math.degrees(p2), math.degrees(l2)


def distance(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(b[1] - a[1]) / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


def sentence(body):
    checksum = 0
    for c in body.encode():
        checksum ^= c
    return f"${body}*{checksum:02X}\r\n".encode()


def route_voyage(binary, checks, recording):
    """A route of three marks sailed to its end in route mode: a boat simulated here (20 kn, turning at most 10° a
    second) steers where the pilot is told, the pilot (behind the Yacht Devices connection) steering, once engaged in
    route mode, to the bearing Telltale's 129284 gives it (read by nmea2000), as a pilot in track mode does. The
    boat's GPS fix and heading go to the gateway's UDP input; the route follower's arrival circle moves the legs on."""
    bus = PilotBus(recording)
    bus.start()
    web, udp = free_port(), free_port()
    work = tempfile.mkdtemp(prefix="telltale-autopilot-route-")
    start = (50.7800, -1.3000)
    marks = [("M1", *destination(*start, 90, 400)), ("M2", *destination(*destination(*start, 90, 400), 20, 400)),
             ("M3", *destination(*start, 330, 300))]
    route = os.path.join(work, "marks.gpx")
    with open(route, "w") as f:
        f.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="autopilot-check" '
                'xmlns="http://www.topografix.com/GPX/1/1"><rte><name>Three marks</name>'
                f'<rtept lat="{start[0]:.6f}" lon="{start[1]:.6f}"><name>START</name></rtept>'
                + "".join(f'<rtept lat="{lat:.6f}" lon="{lon:.6f}"><name>{name}</name></rtept>'
                          for name, lat, lon in marks) + "</rte></gpx>\n")
    gateway = Gateway(binary, f"""status_line = false
route = "{route}"

[[input]]
name = "boat"
url = "udp://127.0.0.1:{udp}"

[n2k]
bus = "ydraw+tcp://127.0.0.1:{bus.port}"

[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
""", work=work).start(wait=[web])
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    boat = {"lat": start[0], "lon": start[1], "heading": 0.0, "speed": 0.0}
    track = []

    def sail(seconds, engaged_speed=15.0):
        """The boat for `seconds`, five fixes a second: the pilot steering it in route mode to 129284's bearing."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with bus.lock:
                mode, bearing = bus.mode, bus.bearing
            if mode == 384 and bearing is not None:
                boat["speed"] = engaged_speed
                turn = (math.degrees(bearing) - boat["heading"] + 540) % 360 - 180
                boat["heading"] = (boat["heading"] + max(-2, min(2, turn))) % 360
                with bus.lock:
                    bus.heading = math.radians(boat["heading"])
            boat["lat"], boat["lon"] = destination(boat["lat"], boat["lon"], boat["heading"], boat["speed"] * 0.2)
            track.append((boat["lat"], boat["lon"]))
            now = time.gmtime()
            stamp = time.strftime("%H%M%S", now)
            lat, lon = abs(boat["lat"]), abs(boat["lon"])
            fix = (f"GPRMC,{stamp}.00,A,{int(lat):02d}{(lat % 1) * 60:07.4f},{'N' if boat['lat'] >= 0 else 'S'},"
                   f"{int(lon):03d}{(lon % 1) * 60:07.4f},{'E' if boat['lon'] >= 0 else 'W'},"
                   f"{boat['speed'] * 3600 / 1852:.1f},{boat['heading']:.1f},{time.strftime('%d%m%y', now)},,,A")
            for body in (fix, f"HEHDT,{boat['heading']:.1f},T"):
                sender.sendto(sentence(body), ("127.0.0.1", udp))
            time.sleep(0.2)

    API = f"/signalk/v2/api/vessels/self/autopilots/raymarine-{PILOT}"
    try:
        sail(4)
        request = urllib.request.Request(f"http://127.0.0.1:{web}{API}/courseCurrentPoint", data=b"", method="POST")
        try:
            code = urllib.request.urlopen(request, timeout=5).status
        except urllib.error.HTTPError as error:
            code = error.code
        sail(1)
        checks(code == 200 and bus.mode == 384, "courseCurrentPoint: the pilot put in route (track) mode, 65379 384 "
               "as nmea2000 reads it", (code, bus.mode))
        # 29 kn over some 1,300 m of legs and three turns: well under three minutes. The legs as the engine moves them
        # on (the Course API's active route), until it has arrived at the last mark.
        def course():
            try:
                with urllib.request.urlopen(
                        f"http://127.0.0.1:{web}/signalk/v2/api/vessels/self/navigation/course", timeout=5) as response:
                    return json.loads(response.read())
            except (OSError, ValueError):
                return {}

        def arrived():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/notifications/"
                                            "navigation/course/arrivalCircleEntered", timeout=5) as response:
                    return (json.loads(response.read()).get("value") or {}).get("message", "")
            except (OSError, ValueError):
                return ""

        deadline = time.monotonic() + 180
        legs = []
        while time.monotonic() < deadline and "M3" not in arrived():
            sail(1)
            point = (course().get("activeRoute") or {}).get("pointIndex")
            if point is not None and (not legs or legs[-1] != point):
                legs.append(point)
        closest = [min(distance(p, (lat, lon)) for p in track) for _, lat, lon in marks]
        checks(legs == [1, 2, 3] and "M3" in arrived() and all(d < 100 for d in closest),
               f"the three marks sailed in order in route mode, the legs moved on by the route follower's arrival "
               f"circle (points {legs}, {arrived()!r}): the boat within {', '.join(f'{d:.0f} m' for d in closest)} of "
               "them (circle 93 m)", (legs, closest))
        point = (course().get("activeRoute") or {}).get("pointIndex")
        checks(point == 3 and bus.mode == 384, f"the course's active route at its last point (index {point}), the pilot "
               "in route mode to the end", course())
    finally:
        bus.stopped = True
        gateway.stop()


class PypilotServer(threading.Thread):
    """A pypilot server as its published sources describe the protocol (pypilot/server.py, client.py, autopilot.py;
    pypilot itself is not on PyPI nor in Debian, so it cannot be run here): lines of `name=value` in JSON; `watch=`
    with a JSON object of names asks for them, sent at once and on every change; `name=value` sets one, and its
    watchers are told. `ap.heading_command` is kept to a tenth of a degree, 0 to 360 on the compass, ±180 off the
    wind; `ap.heading` every second to a watcher that asked for it."""

    def __init__(self, host="127.0.0.1", port=0):
        super().__init__(daemon=True)
        self.host = host
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind((host, port))
        self.server.listen(2)
        self.port = self.server.getsockname()[1]
        self.values = {"ap.enabled": False, "ap.mode": "compass", "ap.heading_command": 200.0, "ap.heading": 198.6}
        self.received = []
        self.watching = set()
        self.hostile = []
        self.drop = False
        self.down = 0
        self.stopped = False
        self.lock = threading.Lock()

    def run(self):
        while not self.stopped:
            self.server.settimeout(0.5)
            try:
                connection, _ = self.server.accept()
            except OSError:
                continue
            self.serve(connection)
            if self.down:
                # Gone for a while (pypilot restarting): nobody listening, then back on the same port.
                self.server.close()
                time.sleep(self.down)
                self.down = 0
                self.server = socket.socket()
                self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                self.server.bind((self.host, self.port))
                self.server.listen(2)

    def send(self, connection, name):
        connection.sendall(f"{name}={json.dumps(self.values[name])}\n".encode())

    def serve(self, connection):
        connection.setblocking(False)
        buffer, beat = b"", time.monotonic()
        self.watching = set()
        while not self.stopped and not self.drop:
            ready, _, _ = select.select([connection], [], [], 0.05)
            try:
                if ready:
                    chunk = connection.recv(4096)
                    if not chunk:
                        return
                    buffer += chunk
                while b"\n" in buffer:
                    raw, buffer = buffer.split(b"\n", 1)
                    name, _, value = raw.decode().partition("=")
                    with self.lock:
                        self.received.append(raw.decode())
                    if name == "watch":
                        for watched in json.loads(value):
                            if watched in self.values:
                                self.watching.add(watched)
                                self.send(connection, watched)
                    elif name in self.values:
                        parsed = json.loads(value)
                        if name == "ap.heading_command":
                            wind = "wind" in self.values["ap.mode"]
                            parsed = round((((float(parsed) + 180) % 360) - 180 if wind else float(parsed) % 360) * 10) / 10
                        self.values[name] = parsed
                        if name in self.watching:
                            self.send(connection, name)
                if time.monotonic() - beat >= 1 and "ap.heading" in self.watching:
                    beat = time.monotonic()
                    self.send(connection, "ap.heading")
                    for line in self.hostile:
                        connection.sendall(line)
                    self.hostile = []
            except OSError:
                return
        connection.close()
        self.drop = False


def pypilot_phase(binary, checks):
    server = PypilotServer()
    server.start()
    web = free_port()
    gateway = Gateway(binary, f"""status_line = false
[autopilot]
pypilot = "127.0.0.1:{server.port}"

[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
""", work=tempfile.mkdtemp(prefix="telltale-pypilot-")).start(wait=[web])
    API = "/signalk/v2/api/vessels/self/autopilots/pypilot"

    def call(method, path="", body=None):
        data = json.dumps(body).encode() if body is not None else (b"" if method != "GET" else None)
        request = urllib.request.Request(f"http://127.0.0.1:{web}{API}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")
        except OSError as error:
            return 0, str(error)

    def status():
        code, body = call("GET")
        return body if code == 200 and isinstance(body, dict) else {}

    try:
        heard = wait_for(lambda: status().get("state") == "standby", 15)
        with server.lock:
            watch = next((line for line in server.received if line.startswith("watch=")), "")
        checks(heard and all(name in watch for name in ("ap.enabled", "ap.mode", "ap.heading_command")),
               "pypilot (a server speaking its documented protocol): Telltale watches ap.enabled, ap.mode and "
               "ap.heading_command; the API says standby, compass, 200°", (watch, status()))
        code, _ = call("POST", "/engage")
        engaged = wait_for(lambda: status().get("state") == "auto", 5)
        with server.lock:
            said = list(server.received)
        checks(code == 200 and engaged and 'ap.mode="compass"' in said and "ap.enabled=true" in said,
               "engage: ap.mode=\"compass\", ap.enabled=true sent; auto once pypilot says so", said[-3:])
        code, _ = call("PUT", "/target/adjust", {"value": 10, "units": "deg"})
        moved = wait_for(lambda: abs((status().get("target") or 0) - math.radians(210)) < 0.002, 5)
        checks(code == 200 and moved and "ap.heading_command=210.0" in server.received,
               "+10°: ap.heading_command=210.0, the target back from pypilot", status())
        code, _ = call("PUT", "/mode", {"value": "route"})
        checks(code == 200 and wait_for(lambda: status().get("mode") == "route", 5)
               and 'ap.mode="nav"' in server.received, "mode route: pypilot's nav mode", status())
        code, _ = call("PUT", "/mode", {"value": "wind"})
        wait_for(lambda: status().get("mode") == "wind", 10)
        code, answer = call("PUT", "/target", {"value": -40, "units": "deg"})
        checks(code == 200 and wait_for(lambda: abs((status().get("target") or 0) + math.radians(40)) < 0.002, 10)
               and "ap.heading_command=-40.0" in server.received,
               "in wind mode the target is a wind angle: ap.heading_command=-40.0", (code, answer, status()))
        server.hostile = [b"ap.heading_command=1e999\n", b"ap.enabled=maybe\n", b"x" * 100000 + b"\n",
                          b"ap.mode=" + b'"' + b"y" * 5000 + b'"\n', b"\xff\xfe=\x00\n"]
        time.sleep(2.5)
        checks(gateway.alive() and status().get("mode") == "wind" and abs((status().get("target") or 0)
                                                                         + math.radians(40)) < 0.002,
               "a hostile pypilot (a number past any heading, a boolean that is not, a 100 kB line, a huge mode, bytes "
               "that are not text): passed over, the state as it was, the gateway running", status())
        code, _ = call("POST", "/disengage")
        checks(code == 200 and wait_for(lambda: status().get("state") == "standby", 5)
               and "ap.enabled=false" in server.received, "disengage: ap.enabled=false, standby", status())
        server.down, server.drop = 4, True
        gone = wait_for(lambda: status().get("state") == "off-line", 3)
        code, answer = call("POST", "/engage")
        back = wait_for(lambda: status().get("state") == "standby", 20)
        checks(gone and code in (409, 503) and back, "pypilot's connection dropped: off-line at once, a command refused "
               f"({code}), connected again by itself", answer)
    finally:
        server.stopped = True
        gateway.stop()
