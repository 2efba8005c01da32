"""The gateway with its NMEA 2000 bus on, measured as a whole process (docs/benchmarks.md has the figures):

    Benchmarks/n2k_gateway.py TELLTALE [RECORDING] [--runner "qemu-aarch64 -L ..."]

1. CPU and memory: `telltale run` reading a recorded bus in real time ([n2k] bus = file://, dirona-actisense-serial.raw
   by default: 635 messages a second) with one TCP output and a client on it, for 60 s; then the same configuration
   without [n2k]. The CPU time /proc says the process used, per second of wall time, and RssAnon / VmHWM at the end:
   the difference is what the bus adds. With --runner, the binary runs under it (the Pi build under qemu-user: its CPU
   is the emulator's, an upper bound, and its memory qemu's too, so only the CPU is printed).
2. Latency (without --runner): an 0183 sentence (VHW, converted to 128259) sent to the gateway's UDP input, until its
   frame arrives at a Yacht Devices RAW connection the script serves, 200 times: the median and the 99th percentile.
"""
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

args = [a for a in sys.argv[1:] if not a.startswith("--runner")]
runner = next((a.split("=", 1)[1].split() for a in sys.argv[1:] if a.startswith("--runner=")), [])
binary = os.path.abspath(args[0])
recording = os.path.abspath(args[1] if len(args) > 1 else
                            os.path.join(os.path.dirname(__file__), "..", "..", "shared", "fixtures", "n2k",
                                         "dirona-actisense-serial.raw"))
work = tempfile.mkdtemp(prefix="telltale-n2k-bench-")
SECONDS = float(os.environ.get("SECONDS_RUN", "60"))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def status(pid):
    values = {}
    for line in open(f"/proc/{pid}/status"):
        key, _, value = line.partition(":")
        values[key] = value.strip()
    return values


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(with_bus):
    port = free_port()
    config = os.path.join(work, f"run-{with_bus}.toml")
    with open(config, "w") as f:
        f.write(f'state_file = "{work}/state.toml"\n\n[[output]]\nname = "tcp"\nurl = "tcp://127.0.0.1:{port}"\n')
        if with_bus:
            f.write(f'\n[n2k]\nbus = "file://{recording}"\n')
    process = subprocess.Popen(runner + [binary, "run", "--config", config], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    time.sleep(1.5)
    sentences = [0]

    def client():
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.settimeout(1)
            while process.poll() is None:
                try:
                    data = s.recv(65536)
                except socket.timeout:
                    continue
                if not data:
                    break
                sentences[0] += data.count(b"\n")
        except OSError:
            pass

    threading.Thread(target=client, daemon=True).start()
    start_cpu, start = cpu_seconds(process.pid), time.monotonic()
    time.sleep(SECONDS)
    used = cpu_seconds(process.pid) - start_cpu
    wall = time.monotonic() - start
    values = status(process.pid)
    process.terminate()
    process.wait(timeout=10)
    return used / wall, values, sentences[0] / wall


with_bus, bus_status, rate = run(True)
without, plain_status, _ = run(False)
label = "under " + " ".join(runner[:1]) if runner else "native"
print(f"CPU ({label}): {with_bus * 100:.1f}% of a core with the bus at its recorded rate ({rate:.0f} sentences a "
      f"second out on TCP), {without * 100:.1f}% without [n2k]")
if not runner:
    print(f"memory: RssAnon {bus_status['RssAnon']} with the bus, {plain_status['RssAnon']} without; VmHWM "
          f"{bus_status['VmHWM']} against {plain_status['VmHWM']}")

    # 2. Latency: a VHW in on UDP, its 128259 out on the Yacht Devices connection.
    yd = socket.socket()
    yd.bind(("127.0.0.1", 0))
    yd.listen(1)
    udp_port = free_port()
    config = os.path.join(work, "latency.toml")
    with open(config, "w") as f:
        f.write(f'state_file = "{work}/state.toml"\n\n[[input]]\nname = "log"\nurl = "udp://127.0.0.1:{udp_port}"\n'
                f'\n[n2k]\nbus = "ydraw+tcp://127.0.0.1:{yd.getsockname()[1]}"\nhold = 0\n')
    process = subprocess.Popen([binary, "run", "--config", config], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    yd.settimeout(10)
    connection, _ = yd.accept()
    connection.settimeout(2)
    time.sleep(1)  # the address claim settles (250 ms)
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    delays = []
    for index in range(200):
        knots = 5 + index / 100
        body = f"VWVHW,,T,,M,{knots:.2f},N,{knots * 1.852:.2f},K"
        checksum = 0
        for c in body:
            checksum ^= ord(c)
        sent = time.perf_counter()
        sender.sendto(f"${body}*{checksum:02X}\r\n".encode(), ("127.0.0.1", udp_port))
        buffer = b""
        while True:
            try:
                buffer += connection.recv(65536)
            except socket.timeout:
                break
            if b" " in buffer and any(line.split()[0][2:6] == b"F503" for line in buffer.split(b"\r\n")
                                      if line.strip()):
                delays.append(time.perf_counter() - sent)
                break
        time.sleep(0.05)
    process.terminate()
    process.wait(timeout=10)
    delays.sort()
    print(f"latency, 0183 in to its PGN on the bus: median {statistics.median(delays) * 1000:.2f} ms, 99th percentile "
          f"{delays[int(len(delays) * 0.99) - 1] * 1000:.2f} ms ({len(delays)} of 200 measured)")
