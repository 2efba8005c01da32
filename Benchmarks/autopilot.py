"""The autopilot's commands as figures (#41; docs/benchmarks.md has them):

    Benchmarks/autopilot.py TELLTALE [--runner="qemu-aarch64 -L ..."] [COMMANDS]

The gateway on a Yacht Devices RAW connection with the recorded EV-1/ACU200 bus and its pilot behind it
(Tests/Interop/autopilot_bus.py), the pilot engaged, then COMMANDS (default 200) target adjustments of ±1° five a
second through the Autopilot API from a device allowed to change things:

1. latency: from the request's first byte written until the command's first frame read at the bus, the median, the
   99th percentile and the worst (with --runner, the Pi build under qemu-user: an upper bound, the emulator's);
2. frames a second the pilot traffic adds: the gateway's frames to the bus while commanded against the same time
   uncommanded (it sends a pilot nothing unasked), and frames per command;
3. memory: RssAnon and VmHWM once the pilot is heard, and after the commands (native only: under qemu-user the
   figures are the emulator's).
"""
import json
import os
import socket
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Support"))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Interop"))
from autopilot_bus import PILOT, PilotBus  # noqa: E402
from support import ROOT, Gateway, free_port, memory_kb, wait_for  # noqa: E402

args = [a for a in sys.argv[1:] if not a.startswith("--runner")]
runner = next((a.split("=", 1)[1].split() for a in sys.argv[1:] if a.startswith("--runner=")), [])
binary = os.path.abspath(args[0])
count = int(args[1]) if len(args) > 1 else 200
recording = os.path.join(ROOT, "..", "shared", "fixtures", "n2k", "candumpSample3.txt")
bus = PilotBus(recording)
bus.start()
web = free_port()
gateway = Gateway(binary, f"""status_line = false
[n2k]
bus = "ydraw+tcp://127.0.0.1:{bus.port}"
[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
""", work=tempfile.mkdtemp(prefix="telltale-autopilot-bench-"), runner=runner).start(wait=[web], seconds=30)
DEVICE = f"/signalk/v2/api/vessels/self/autopilots/raymarine-{PILOT}"


def request(method, path, body=None):
    s = socket.create_connection(("127.0.0.1", web), timeout=10)
    data = json.dumps(body).encode() if body is not None else b""
    head = (f"{method} {path} HTTP/1.1\r\nHost: boat\r\nConnection: close\r\nContent-Length: {len(data)}\r\n\r\n"
            .encode())
    start = time.monotonic()
    s.sendall(head + data)
    reply = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        reply += chunk
    s.close()
    return start, int(reply.split(b" ")[1]) if reply.startswith(b"HTTP/1.1 ") else 0


def state():
    _, code = request("GET", DEVICE)
    return code


def gateway_frames():
    with bus.lock:
        return len([f for f in bus.frames_in])


wait_for(lambda: state() == 200, 30)
request("POST", DEVICE + "/engage")
wait_for(lambda: bus.mode == 64, 10)
time.sleep(2)
pid = gateway.process.pid
before = (memory_kb(pid, "RssAnon"), memory_kb(pid, "VmHWM")) if not runner else None
quiet_start, quiet_frames = time.monotonic(), gateway_frames()
time.sleep(10)
quiet_rate = (gateway_frames() - quiet_frames) / (time.monotonic() - quiet_start)
latencies = []
busy_start, busy_frames = time.monotonic(), gateway_frames()
command_frames = 0
for n in range(count):
    with bus.lock:
        seen = len(bus.sent)
        frames_before = len([f for f in bus.frames_in if f[1] == 126720])
    sent_at, code = request("PUT", DEVICE + "/target/adjust", {"value": 1 if n % 2 == 0 else -1, "units": "deg"})
    wait_for(lambda: len(bus.sent) > seen, 2, step=0.001)
    with bus.lock:
        if code == 200 and len(bus.sent) > seen:
            latencies.append((bus.sent[seen][0] - sent_at) * 1000)
        command_frames += len([f for f in bus.frames_in if f[1] == 126720]) - frames_before
    time.sleep(max(0, 0.2 - (time.monotonic() - sent_at)))
busy_rate = (gateway_frames() - busy_frames) / (time.monotonic() - busy_start)
after = (memory_kb(pid, "RssAnon"), memory_kb(pid, "VmHWM")) if not runner else None
bus.stopped = True
gateway.stop()
latencies.sort()
label = "under " + " ".join(runner[:1]) if runner else "native"
print(f"autopilot bench ({label}): {len(latencies)} of {count} commands reached the bus")
if latencies:
    print(f"  PUT to first frame: median {statistics.median(latencies):.2f} ms, 99th percentile "
          f"{latencies[int(len(latencies) * 0.99) - 1]:.2f} ms, worst {latencies[-1]:.2f} ms")
print(f"  the gateway's frames to the bus: {quiet_rate:.1f}/s uncommanded, {busy_rate:.1f}/s with a command every "
      f"0.2 s: +{busy_rate - quiet_rate:.1f}/s, {command_frames / max(1, len(latencies)):.1f} frames a command")
if before and after:
    print(f"  memory: RssAnon {before[0]} kB with the pilot heard and engaged, {after[0]} kB after the commands; "
          f"VmHWM {before[1]} -> {after[1]} kB")
