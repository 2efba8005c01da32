"""Signal K server figures: the whole gateway's resident memory with the server idle and with N streaming clients,
and the CPU each client costs. A benchmark, not a test: it prints figures and asserts nothing.

    python3 Benchmarks/signalk.py BINARY [CLIENTS] [SECONDS] [RUNNER...]

The gateway plays the demo voyage in real time (about 26 sentences a second, the engine at 10 Hz) with one TCP
output and [web] on. Each client is a raw WebSocket (subscribe=self) read by one select() loop here, so the
clients cost this process, not the gateway. CPU is the gateway's user+system time from /proc, over SECONDS, with
no clients and then with CLIENTS.
"""

import base64
import os
import select
import socket
import subprocess
import sys
import tempfile
import time

binary = sys.argv[1]
clients = int(sys.argv[2]) if len(sys.argv) > 2 else 10
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 20
runner = sys.argv[4:]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


web, nmea = free_port(), free_port()
config = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
config.write(f"""route = "{root}/Fixtures/demo-voyage/route.gpx"
status_line = false
state_file = ""
[[input]]
name = "demo"
url = "file:{root}/Fixtures/demo-voyage/voyage.nmea"
loop = true
[[output]]
name = "plotter"
url = "tcp://127.0.0.1:{nmea}"
[web]
listen = "127.0.0.1:{web}"
""")
config.close()
gateway = subprocess.Popen(runner + [binary, "run", "--config", config.name], stderr=subprocess.DEVNULL)
# The PID whose /proc we read: the gateway itself, or qemu running it (its memory then includes qemu's own).
pid = gateway.pid
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", web), timeout=0.2).close()
        break
    except OSError:
        time.sleep(0.1)


def status(field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(sockets, duration):
    start_cpu, start = cpu(), time.monotonic()
    received = 0
    while time.monotonic() - start < duration:
        ready, _, _ = select.select(sockets, [], [], 0.2) if sockets else ([], [], time.sleep(0.2))
        for s in ready:
            received += len(s.recv(65536))
    return (cpu() - start_cpu) / (time.monotonic() - start), received


time.sleep(5)
idle_cpu, _ = measure([], seconds)
idle_rss = status("VmRSS")
sockets = []
for _ in range(clients):
    s = socket.create_connection(("127.0.0.1", web))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /signalk/v1/stream?subscribe=self HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    sockets.append(s)
busy_cpu, received = measure(sockets, seconds)
busy_rss = status("VmRSS")
hwm = status("VmHWM")
gateway.terminate()
gateway.wait()
os.unlink(config.name)
print(f"gateway with the Signal K server idle: {idle_rss / 1024:.1f} MB resident, CPU {idle_cpu * 100:.2f}% of a core")
print(f"with {clients} streaming clients: {busy_rss / 1024:.1f} MB resident (peak {hwm / 1024:.1f} MB), "
      f"CPU {busy_cpu * 100:.2f}% of a core, {received / seconds / clients / 1024:.1f} KB/s to each client")
print(f"CPU per client: {(busy_cpu - idle_cpu) / clients * 100:.3f}% of a core")
