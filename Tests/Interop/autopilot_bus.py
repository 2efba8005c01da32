"""A pilot's bus for the Autopilot API's checks (#41): the gateway on a Yacht Devices gateway's TCP RAW protocol (the one
`[n2k] bus = "ydraw+tcp://..."` speaks), behind which this script plays the recorded EV-1/ACU200 bus in a loop and
the pilot (address 204) answers what it is told: every frame the gateway writes is read by PyPI's `nmea2000`
(canboat's database), and only what that decoder reads as the right PGN and fields changes the pilot's mode or
heading, which it then reports in its own PGNs (65379 mode, 65360 locked heading) as an Evolution does. The demo
voyage with its polar gives the wind for a tack; the expected tack is worked out here from the polar file.
"""
import math
import select
import socket
import threading
import time

from nmea2000.decoder import NMEA2000Decoder

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
