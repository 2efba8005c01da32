"""Signal K server figures: the whole gateway's resident memory with the server idle and with N streaming clients,
and the CPU each client costs. A benchmark, not a test: it prints figures and asserts nothing.

    python3 Benchmarks/signalk.py BINARY [CLIENTS] [SECONDS] [RUNNER...]

Then (x86 only, without RUNNER) the pass-through latency and tick lateness of Benchmarks/runtime.py, measured the
same way, while bad clients hammer the server the whole time: subscribe floods, clients that connect and vanish,
a stream client that never reads, and CLIENTS streaming clients.

The gateway plays the demo voyage in real time (about 26 sentences a second, the engine at 10 Hz) with one TCP
output and [web] on. Each client is a raw WebSocket (subscribe=self) read by one select() loop here, so the
clients cost this process, not the gateway. CPU is the gateway's user+system time from /proc, over SECONDS, with
no clients and then with CLIENTS.
"""

import base64
import os
import select
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
from support import Gateway, free_port, memory_kb, demo_input  # noqa: E402

binary = sys.argv[1]
clients = int(sys.argv[2]) if len(sys.argv) > 2 else 10
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 20
runner = sys.argv[4:]
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


web, nmea = free_port(), free_port()
gateway = Gateway(binary, f"""route = "{root}/Fixtures/demo-voyage/route.gpx"
status_line = false
state_file = ""
{demo_input('demo', loop=True)}[[output]]
name = "plotter"
url = "tcp://127.0.0.1:{nmea}"
[web]
listen = "127.0.0.1:{web}"
""", runner=runner).start(wait=[web], seconds=30).process
# The PID whose /proc we read: the gateway itself, or qemu running it (its memory then includes qemu's own).
pid = gateway.pid


def status(field):
    return memory_kb(pid, field)


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
print(f"gateway with the Signal K server idle: {idle_rss / 1024:.1f} MB resident, CPU {idle_cpu * 100:.2f}% of a core")
print(f"with {clients} streaming clients: {busy_rss / 1024:.1f} MB resident (peak {hwm / 1024:.1f} MB), "
      f"CPU {busy_cpu * 100:.2f}% of a core, {received / seconds / clients / 1024:.1f} KB/s to each client")
print(f"CPU per client: {(busy_cpu - idle_cpu) / clients * 100:.3f}% of a core")


def abuse(port, stop):
    """Bad clients, over and over, until `stop`."""
    # ABUSE_NICE: the bad clients at a lower priority than the gateway and the measurement, as the phones of a
    # boat are (they are not on the Pi); unset, they compete with both for this machine's two cores.
    os.nice(int(os.environ.get("ABUSE_NICE", "0")))
    handshake = (b"GET /signalk/v1/stream?subscribe=self HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    streams = []
    for _ in range(clients):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(handshake)
        streams.append(s)
    lazy = socket.create_connection(("127.0.0.1", port))
    lazy.sendall(handshake)
    while not stop.is_set():
        for s in streams:
            try:
                while select.select([s], [], [], 0)[0] and s.recv(65536):
                    pass
            except OSError:
                pass
        try:
            flood = socket.create_connection(("127.0.0.1", port))
            flood.sendall(handshake.replace(b"subscribe=self", b"subscribe=none"))
            message = b'{"subscribe":[{"path":"navigation.x","period":1000}]}'
            mask = b"\x01\x02\x03\x04"
            frame = bytes([0x81, 0x80 | len(message)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(message))
            flood.sendall(frame * 300)
            flood.close()
            for _ in range(20):
                socket.create_connection(("127.0.0.1", port)).close()
            socket.create_connection(("127.0.0.1", port)).sendall(b"GET / HTTP/1.1\r\nX: " + b"a" * 65536)
        except OSError:
            pass
        time.sleep(0.05)


if not runner:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import runtime

    import multiprocessing

    abuse_port = free_port()

    def during(stop):
        # The bad clients in a process of their own: in a thread they would hold Python's lock against the
        # latency measurement, and the figure would be the script's.
        finished = multiprocessing.Event()
        worker = multiprocessing.Process(target=abuse, args=(abuse_port, finished), daemon=True)
        worker.start()
        stop.wait()
        finished.set()
        worker.join(5)

    runtime.run_latency(
        extra_config=f'[web]\nlisten = "127.0.0.1:{abuse_port}"\n', during=during,
        label=" with the Signal K server's bad clients")
