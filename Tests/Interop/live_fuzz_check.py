"""Hostile input on a running gateway, not on a replay (replay never took the runtime's paths: from 2026-11-24 to
2026-12-03 the first implausible sentence on a live input stopped `telltale run`). One gateway with everything that
reads a sentence on (a route, a polar, alarms, history, Signal K with a stream client, a TCP output with pass-through)
is fed for a minute, from a fixed seed: the demo voyage's sentences on UDP with fields turned to what no instrument
sends (`nan`, `1e9`, `9959.99`, `-360`, a longitude 3,000 NM off) and their checksums made good, lines cut short, bytes
of noise; then a Yacht Devices RAW stream of real NMEA 2000 frames (canboat's samples) with bytes, identifiers and
lengths mangled. It must run throughout, say what it refused, and send only what is true: every line on its output
framed with a good checksum and at most 82 bytes, no computed value out of its range, Signal K's position never off
the voyage."""
import functools
import json
import operator
import os
import random
import re
import socket
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Support"))
from support import Checks, free_port, Gateway, wait_for  # noqa: E402

binary = sys.argv[1]
# The Pi's builds under qemu-user (Tests/Pi/qemu-check.sh): RUNNER="qemu-arm -L ..." before the binary.
runner = os.environ.get("RUNNER", "").split()
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DEMO = os.path.abspath(os.path.join(ROOT, "Fixtures", "demo-voyage"))
N2K = os.path.abspath(os.path.join(ROOT, "..", "shared", "fixtures", "n2k"))
checks = Checks("live-fuzz-check")
rnd = random.Random(20261203)
udp, raw, out, web = free_port(socket.SOCK_DGRAM), free_port(socket.SOCK_DGRAM), free_port(), free_port()
work = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"live-fuzz-{os.getpid()}")
os.makedirs(work, exist_ok=True)
gateway = Gateway(binary, f"""status_line = false
state_file = "{work}/state.toml"
route = "{DEMO}/route.gpx"
polar = "{DEMO}/polar.csv"
[[input]]
name = "udp"
url = "udp://127.0.0.1:{udp}"
[[output]]
name = "tcp"
url = "tcp://127.0.0.1:{out}"
[alarms]
over_heel = 18
shallow = 9.3
xte = 0.02
[n2k]
bus = "ydraw+udp://:{raw}"
[web]
listen = "127.0.0.1:{web}"
[history]
keep_mb = 4
""", work=work, name="fuzzed", runner=runner).start(wait=[out, web], seconds=60 if runner else 10)

received = bytearray()


def read_output():
    s = socket.create_connection(("127.0.0.1", out))
    s.settimeout(0.5)
    while gateway.alive():
        try:
            data = s.recv(65536)
            if not data:
                return
            received.extend(data)
        except socket.timeout:
            pass
        except OSError:
            return


threading.Thread(target=read_output, daemon=True).start()

WEIRD = ["", "-1", "NaN", "nan", "inf", "-inf", "1e9", "1e-400", "+5", "99999999999999999999", "-360", "720", "361",
         "9959.99", "18100.0", "9100.0", "3600.00", "A", "V", "N", "W", "M", "246000.00", ".", "-"]


def made_good(start, body):
    return f"{start}{body}*{functools.reduce(operator.xor, body.encode('latin1'), 0):02X}"


def mangled(line):
    """The line with one to three fields replaced and its checksum made good; sometimes cut short or noise."""
    if line[:1] in "$!" and "*" in line and rnd.random() < 0.3:
        fields = line[1:line.rindex("*")].split(",")
        for _ in range(rnd.randint(1, 3)):
            index = rnd.randrange(1, len(fields)) if len(fields) > 1 else 0
            fields[index] = rnd.choice(WEIRD) if rnd.random() < 0.7 else f"{rnd.uniform(-1e6, 1e6)}"
        line = made_good(line[0], ",".join(fields))
    if rnd.random() < 0.02:
        line = line[:rnd.randrange(1, max(2, len(line)))]
    if rnd.random() < 0.01:
        line = "".join(chr(rnd.randrange(1, 256)) for _ in range(rnd.randint(1, 120)))
    return line


def position():
    """Signal K's position now, or {} (none yet, or no answer)."""
    url = f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/navigation/position/value"
    try:
        with urllib.request.urlopen(url, timeout=3) as answer:
            return json.load(answer)
    except (OSError, ValueError):
        return {}


def near(place):
    return abs(place.get("latitude", 0) - 50.78) < 0.1 and abs(place.get("longitude", 0) + 1.30) < 0.1


samples = []
sampling = [True]


def sample():
    while sampling[0]:
        samples.append(position())
        time.sleep(0.2)


threading.Thread(target=sample, daemon=True).start()
voyage = [line.rstrip("\r\n") for line in open(os.path.join(DEMO, "voyage.nmea"), encoding="latin1")]
sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
checks.stage("the demo voyage's sentences, mangled, for 40 s")
sent = 0
glitches = []
next_glitch = 2000
began = time.monotonic()
while time.monotonic() - began < 40 and gateway.alive():
    for line in voyage[sent % len(voyage): sent % len(voyage) + 40]:
        sender.sendto((mangled(line) + "\r\n").encode("latin1"), ("127.0.0.1", udp))
        sent += 1
        # Every 2,000 sentences, a fix 3,450 NM off (its longitude 99°59.99' W), then a pause: Signal K's position
        # read while it would be the last fix.
        if sent >= next_glitch and line.startswith("$GPRMC"):
            next_glitch += 2000
            fields = line[1:line.rindex("*")].split(",")
            fields[5] = "09959.990"
            sender.sendto((made_good("$", ",".join(fields)) + "\r\n").encode(), ("127.0.0.1", udp))
            time.sleep(0.8)
            glitches.append(position())
    time.sleep(0.02)
checks(gateway.alive(), f"the gateway ran through {sent} sentences, about a third of them mangled")

sampling[0] = False
read = [p for p in samples + glitches if p]
off = [p for p in read if not near(p)]
checks(len(read) > 40 and len(glitches) >= 3 and not off,
       f"Signal K's position, read {len(read)} times meanwhile ({len(glitches)} just after a fix 3,450 NM off), always "
       "the voyage's (off the Isle of Wight)", str(off[:3]))


def frames():
    found = []
    for name in ("candumpSample1.txt", "candumpSample3.txt", "actisense-522.candump.log"):
        for line in open(os.path.join(N2K, name), errors="replace"):
            m = re.search(r"<0x([0-9a-f]+)> \[\d\] ((?:[0-9a-f]{2} ?)*)", line)
            if m:
                found.append((int(m.group(1), 16), bytes.fromhex(m.group(2).replace(" ", ""))))
                continue
            m = re.search(r"\) \S+ ([0-9A-F]{8})#([0-9A-F]*)", line)
            if m:
                found.append((int(m.group(1), 16), bytes.fromhex(m.group(2))))
    return found


if os.path.isdir(N2K):
    checks.stage("real NMEA 2000 frames as a YDWG-02 sends them, mangled, for 20 s")
    bus = frames()
    count = 0
    began = time.monotonic()
    while time.monotonic() - began < 20 and gateway.alive():
        for _ in range(20):
            identifier, data = bus[count % len(bus)]
            data = bytearray(data)
            roll = rnd.random()
            if roll < 0.25 and data:
                for _ in range(rnd.randint(1, 3)):
                    data[rnd.randrange(len(data))] = rnd.choice([0, 0xFF, 0x7F, 0x80, 0xFE, rnd.randrange(256)])
            elif roll < 0.3:
                identifier ^= 1 << rnd.randrange(29)
            elif roll < 0.33:
                data = data[:rnd.randrange(len(data) + 1)]
            now = time.time()
            stamp = time.strftime("%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}"
            text = f"{stamp} R {identifier & 0x1FFFFFFF:08X} " + " ".join(f"{b:02X}" for b in data)
            if rnd.random() < 0.01:
                text = "".join(chr(rnd.randrange(32, 127)) for _ in range(rnd.randint(0, 80)))
            sender.sendto((text + "\r\n").encode(), ("127.0.0.1", raw))
            count += 1
        time.sleep(0.01)
    checks(gateway.alive(), f"the gateway ran through {count} NMEA 2000 frames, a third of them mangled")
else:
    print(f"SKIPPED: {N2K} is absent; no NMEA 2000 frames sent")

log = gateway.log()
checks("input udp: implausible" in log and "not passed on" in log, "the implausible said in the log", log[-500:])
checks(gateway.alive() and "Fatal" not in log, "alive at the end, nothing fatal in its log", log[-800:])
gateway.stop()

RANGES = {"MWV": [(1, 0, 360), (3, 0, 200)], "MWD": [(1, 0, 360), (3, 0, 360), (5, 0, 200)], "HDT": [(1, 0, 360)],
          "VPW": [(1, -100, 100)], "XDR": [], "RMB": [(11, 0, 360), (12, -100, 100)], "BWC": [(6, 0, 360)],
          "WCV": [(1, -100, 100)]}
lines = bytes(received).split(b"\r\n")
bad = []
computed = 0
for raw_line in lines[:-1]:
    line = raw_line.decode("latin1")
    match = re.fullmatch(r"([$!])([^*]*)\*([0-9A-F]{2})", line)
    if not match or len(raw_line) + 2 > 82 or functools.reduce(
            operator.xor, match.group(2).encode("latin1"), 0) != int(match.group(3), 16):
        bad.append(line)
        continue
    fields = match.group(2).split(",")
    if not fields[0].startswith("II"):
        continue
    computed += 1
    for index, low, high in RANGES.get(fields[0][2:], []):
        try:
            if index < len(fields) and fields[index] and not low <= float(fields[index]) < high:
                bad.append(line)
        except ValueError:
            bad.append(line)
passed = [line for line in lines if b"09959.990" in line]
checks(not passed, "none of the fixes 3,450 NM off passed through", str(passed[:3]))
checks(computed > 1000 and not bad, f"{len(lines) - 1} lines on the output, {computed} computed: every one framed, "
       "checksummed, at most 82 bytes, in range", str(bad[:5]))
checks.finish()
