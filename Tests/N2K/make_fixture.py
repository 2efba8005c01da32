"""Makes Fixtures/n2k/telltale-demo.candump: what Telltale puts on an NMEA 2000 bus while it sails the demo voyage,
recorded, with the independent decoder's reading of it beside it (telltale-demo.expected.jsonl).

    make_fixture.py TELLTALE [SECONDS]

The gateway runs on the bench's voyage (its 0183 log, the IMU trace, the route) with `[n2k]` on a Yacht Devices RAW
connection: this script is the Wi-Fi gateway's end of it, a TCP server on loopback that takes the frame lines the
gateway sends (`19F51323 01 2F ...`) and writes them as candump -l lines with the time they came. Every conversion and
every computed PGN is on, so the fixture holds each PGN Telltale writes: its address claim, the wind, heading, attitude,
route guidance, the position merged from RMC and GGA, depth, speed, temperature, log, AIS. The expected file is PyPI's
`nmea2000` decoding the recording when it was made (run again by the decode check).
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

from nmea2000.decoder import NMEA2000Decoder

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def main():
    binary = os.path.abspath(sys.argv[1])
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 30
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    work = tempfile.mkdtemp(prefix="telltale-n2k-fixture-")
    demo = os.path.join(ROOT, "Fixtures", "demo-voyage")
    config = os.path.join(work, "telltale.toml")
    with open(config, "w") as f:
        f.write(f"""state_file = "{work}/state.toml"
talker = "II"
route = "{demo}/route.gpx"
polar = "{demo}/polar.csv"

[[input]]
name = "instruments"
url = "file:{demo}/voyage.nmea"
speed = 4

[imu]
url = "csv:{demo}/imu.csv"
axes = "x,y,z"

[n2k]
bus = "ydraw+tcp://127.0.0.1:{port}"
convert = ["position", "speed", "depth", "temperature", "log", "environment", "ais", "rate-of-turn", "rudder"]
""")
    gateway = subprocess.Popen([binary, "run", "--config", config], stdout=subprocess.DEVNULL,
                               stderr=open(os.path.join(work, "run.log"), "w"))
    server.settimeout(20)
    connection, _ = server.accept()
    connection.settimeout(0.5)
    start = time.time()
    lines = []
    pending = b""
    while time.time() - start < seconds:
        try:
            data = connection.recv(65536)
        except socket.timeout:
            continue
        if not data:
            break
        now = time.time()
        pending += data
        *complete, pending = pending.split(b"\n")
        for line in complete:
            words = line.decode().split()
            if len(words) < 2:
                continue
            lines.append(f"({now:.6f}) can0 {words[0]}#{''.join(words[1:])}")
    gateway.terminate()
    gateway.wait(timeout=10)
    target = os.path.join(ROOT, "Fixtures", "n2k", "telltale-demo.candump")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w") as f:
        f.write("\n".join(lines) + "\n")
    decoder = NMEA2000Decoder()
    expected = []
    for line in lines:
        message = decoder.decode(line)
        if message is None:
            continue
        fields = {}
        for field in message.fields:
            if field.id.startswith("reserved") or field.id == "##list##":
                continue
            value = field.raw_value if field.raw_value is not None else field.value
            if isinstance(value, bytes):
                value = field.value  # a text: as read, its padding left off
            fields[field.id] = value if isinstance(value, (int, float, str)) or value is None else str(value)
        expected.append(json.dumps({"pgn": message.PGN, "src": message.source, "fields": fields}))
    with open(target[:-len(".candump")] + ".expected.jsonl", "w") as f:
        f.write("\n".join(expected) + "\n")
    pgns = sorted({json.loads(e)["pgn"] for e in expected})
    print(f"{target}: {len(lines)} frames, {len(expected)} messages decoded by nmea2000, PGNs {pgns}")


if __name__ == "__main__":
    main()
