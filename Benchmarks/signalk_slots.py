"""Signal K slots: what 10 phones and 32 dead sockets cost the gateway, and how long a dead socket holds its slot.
A benchmark, not a test: it prints figures and asserts nothing.

    python3 Benchmarks/signalk_slots.py BINARY [SECONDS]

The gateway plays the demo voyage in real time with [web] on. Ten phones, each from its own address (127.0.1.N),
stream `*` at 1 Hz (`{"subscribe": [{"path": "*", "period": 1000}]}`: fixed, one value a path a second). Figures:
resident memory and CPU with the ten; then with 32 dead TCP sockets (connected, silent) beside them; the time from
a dead socket's connect to the server closing it (its slot freed); and the time from a stream going silent (never
answering a ping) to the server dropping it.
"""

import base64
import json
import os
import select
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
from support import Gateway, free_port, memory_kb, demo_input  # noqa: E402

binary = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
web = free_port()
gateway = Gateway(binary, f"""route = "{root}/Fixtures/demo-voyage/route.gpx"
status_line = false
state_file = ""
{demo_input('demo', loop=True)}[web]
listen = "127.0.0.1:{web}"
""").start(wait=[web], seconds=30).process
pid = gateway.pid


def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def frame(text):
    payload = text.encode()
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def stream(source, query="subscribe=none"):
    s = socket.create_connection(("127.0.0.1", web), source_address=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /signalk/v1/stream?{query} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    return s


def pong_all(sockets, duration):
    """Reads the phones for `duration`, answering pings as a phone's browser does; bytes received."""
    received = 0
    start = time.monotonic()
    while time.monotonic() - start < duration:
        for s in select.select(sockets, [], [], 0.2)[0]:
            data = s.recv(65536)
            received += len(data)
            if b"\x89" in data:
                s.sendall(bytes([0x8A, 0x80]) + os.urandom(4))
    return received


time.sleep(5)
phones = []
for n in range(10):
    s = stream(f"127.0.1.{n + 1}")
    s.sendall(frame(json.dumps({"context": "vessels.self", "subscribe": [{"path": "*", "period": 1000}]})))
    phones.append(s)
pong_all(phones, 5)
start_cpu, start = cpu(), time.monotonic()
received = pong_all(phones, seconds)
phones_cpu = (cpu() - start_cpu) / (time.monotonic() - start)
phones_rss = memory_kb(pid, "VmRSS")
print(f"10 phones streaming * at 1 Hz: {phones_rss / 1024:.1f} MB resident, CPU {phones_cpu * 100:.2f}% of a core, "
      f"{received / seconds / 10 / 1024:.1f} KB/s to each")

dead = [(socket.create_connection(("127.0.0.1", web), source_address=(f"127.0.2.{n % 8 + 1}", 0)), time.monotonic())
        for n in range(32)]
start_cpu, start = cpu(), time.monotonic()
pong_all(phones, 5)
dead_rss = memory_kb(pid, "VmRSS")
freed = []
silent = stream("127.0.3.1")
silent_since = time.monotonic()
silent_dropped = None
while (len(freed) < len(dead) or silent_dropped is None) and time.monotonic() - start < 90:
    pong_all(phones, 0.5)
    for s, opened in dead:
        if s.fileno() >= 0 and select.select([s], [], [], 0)[0] and s.recv(1) == b"":
            freed.append(time.monotonic() - opened)
            s.close()
    if silent_dropped is None and select.select([silent], [], [], 0)[0]:
        data = silent.recv(65536)
        if data == b"" or b"\x88" in data:
            silent_dropped = time.monotonic() - silent_since
with_dead_cpu = (cpu() - start_cpu) / (time.monotonic() - start)
print(f"with 32 dead sockets beside them: {dead_rss / 1024:.1f} MB resident, CPU {with_dead_cpu * 100:.2f}% of a core "
      f"while they were freed")
# With the ten phones, 32 more connections pass the 32 slots: the oldest dead ones make room for the newest at
# once (evicted); the rest are closed by the idle timeout.
early = [t for t in freed if t < 10]
late = [t for t in freed if t >= 10]
print(f"dead sockets' slots freed: {len(early)} at once to make room for newer ones, "
      f"{len(late)} by the idle timeout after {min(late or [0]):.1f}–{max(late or [0]):.1f} s ({len(freed)} of 32)")
print(f"a stream that stopped answering dropped after {silent_dropped or float('nan'):.1f} s")
print(f"peak resident {memory_kb(pid, 'VmHWM') / 1024:.1f} MB")
gateway.terminate()
gateway.wait()
