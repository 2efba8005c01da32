#!/usr/bin/env python3
"""Runtime figures (issue: gateway runtime), on loopback:

- pass-through latency, input -> TCP output: a TCP input fed by this script at 200 Hz with unique sentences, timed
  from the moment each is sent until it comes out of telltale's TCP output (p50, p99);
- tick jitter: how late the 10 Hz engine ticks ran (telltale reports it when it stops), with the demo voyage and its
  100 Hz IMU playing at 10x alongside (about 260 sentences and 1000 IMU samples a second);
- tick lateness with 8 clients writing to the TCP output port (100 MB/s between them) while a ninth reads;
- resident memory sampled every 2 s, flat or not, then the same with a flood: the demo voyage at 1000x until
  SENTENCES (default 1 000 000; 10 000 000 for the full claim) have gone through.

Usage: Benchmarks/runtime.py BINARY [SENTENCES]
"""
import os, re, select, socket, struct, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
from support import Gateway, free_port, memory_kb, sentence as checksum, demo_input  # noqa: E402

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)

binary = sys.argv[1]
flood_sentences = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss(pid):
    return memory_kb(pid) / 1024


def connect_reader(port):
    """A client of the gateway's TCP output, once the port answers (up to 5 s)."""
    for _ in range(100):
        try:
            return socket.create_connection(("127.0.0.1", port))
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on port {port}")


def run_latency(extra_config="", during=None, label=""):
    """Pass-through latency; `during(stop)` runs in a thread meanwhile (other clients of the gateway), and
    `extra_config` is added to the gateway's configuration."""
    import threading

    input_port, output_port = free_port(), free_port()
    server = socket.socket()
    server.bind(("127.0.0.1", input_port))
    server.listen(1)
    gateway = Gateway(binary, f"""status_line = false
[imu]
url = "csv:{root}/Fixtures/demo-voyage/imu.csv"
loop = true
speed = 10
[[input]]
name = "timed"
url = "tcp://127.0.0.1:{input_port}"
{demo_input('voyage', loop=True, speed=10)}[[output]]
url = "tcp://127.0.0.1:{output_port}"
{extra_config}""").start()
    feed, _ = server.accept()
    stop = threading.Event()
    if during:
        threading.Thread(target=during, args=(stop,), daemon=True).start()
        time.sleep(1)
    reader = connect_reader(output_port)
    reader.setblocking(False)
    # The kernel's receive time of each read (SO_TIMESTAMPNS): when the gateway's bytes reached the reader's socket,
    # not when this script woke to read them. Both are reported; the first is the gateway's latency, the second
    # adds this process's own wake-up, which on a shared 2-core machine is often the larger part of the p99.
    reader.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    sent = {}
    latencies = []
    at_reader = []
    buffered = b""
    samples = []
    count = 3000
    start = time.perf_counter()
    for n in range(count):
        marker = f"{n:05d}"
        line = checksum(f"YXTXT,01,01,42,L{marker}")
        sent[marker] = (time.perf_counter(), time.time_ns())
        feed.sendall(line)
        deadline = start + (n + 1) / 200
        while True:
            # Wait in select() until bytes arrive or the next send is due: the time measured is the gateway's, not
            # a polling interval of ours (a 0.2 ms sleep here used to be most of the p50).
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                break
            readable, _, _ = select.select([reader], [], [], remaining)
            if not readable:
                break
            received = time.perf_counter()
            try:
                data, ancillary, _, _ = reader.recvmsg(1 << 16, 256)
            except BlockingIOError:
                continue
            buffered += data
            arrived = None
            for level, kind, value in ancillary:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(value) >= 16:
                    seconds, nanoseconds = struct.unpack("qq", value[:16])
                    arrived = seconds * 1_000_000_000 + nanoseconds
            while b"\r\n" in buffered:
                one, buffered = buffered.split(b"\r\n", 1)
                m = re.match(rb"\$YXTXT,01,01,42,L(\d{5})", one)
                if m:
                    monotonic, wall = sent[m.group(1).decode()]
                    latencies.append(received - monotonic)
                    if arrived is not None:
                        at_reader.append((arrived - wall) / 1e9)
        if n % 400 == 0:
            samples.append(rss(gateway.process.pid))
    stop.set()
    gateway.stop()
    err = gateway.log()
    jitter = re.search(r"tick lateness p50 ([0-9.]+) ms, p99 ([0-9.]+) ms", err)
    for name, values in (("at the reader's socket (kernel receive time)", at_reader),
                         ("at the reader, woken", latencies)):
        if not values:
            continue
        values.sort()
        p = lambda q: values[min(len(values) - 1, int(q * len(values)))] * 1000
        print(f"pass-through latency over loopback{label}, {name}: {len(values)} of {count} sentences, "
              f"p50 {p(0.5):.3f} ms, p99 {p(0.99):.3f} ms, max {values[-1] * 1000:.3f} ms")
    if jitter:
        print(f"tick lateness at 10 Hz with inputs playing{label}: p50 {jitter.group(1)} ms, p99 {jitter.group(2)} ms")
    print(f"resident memory during it: {min(samples):.1f} to {max(samples):.1f} MB")


def run_flood():
    output_port = free_port()
    gateway = Gateway(binary, f"""status_line = false
[[input]]
url = "file:{root}/Fixtures/demo-voyage/voyage.nmea"
loop = true
speed = 1000
[[output]]
url = "tcp://127.0.0.1:{output_port}"
""").start()
    time.sleep(0.5)
    reader = socket.create_connection(("127.0.0.1", output_port))
    reader.settimeout(0.5)
    received = 0
    samples = []
    last_sample = 0
    start = time.time()
    while received < flood_sentences:
        try:
            chunk = reader.recv(1 << 20)
        except socket.timeout:
            continue
        received += chunk.count(b"\n")
        if time.time() - last_sample > 2:
            samples.append((received, rss(gateway.process.pid)))
            last_sample = time.time()
    elapsed = time.time() - start
    gateway.stop()
    first = samples[len(samples) // 10][1] if samples else 0
    print(f"flood: {received:,} sentences through the runtime in {elapsed:.0f} s "
          f"({received / elapsed:,.0f}/s); resident memory {first:.1f} MB after 10 %, "
          f"{samples[-1][1]:.1f} MB at the end (min {min(s[1] for s in samples):.1f}, "
          f"max {max(s[1] for s in samples):.1f})")


def run_writers(seconds=10, writers=8, rate=100e6):
    """Clients that write to an output port: read and thrown away, at most 16 KiB each a turn of the loop."""
    import threading
    output_port = free_port()
    gateway = Gateway(binary, f"""status_line = false
[[input]]
url = "file:{root}/Fixtures/demo-voyage/voyage.nmea"
loop = true
speed = 10
[[output]]
url = "tcp://127.0.0.1:{output_port}"
""").start()
    reader = connect_reader(output_port)
    sent = [0] * writers
    stop = time.time() + seconds

    def write(index):
        sock = socket.create_connection(("127.0.0.1", output_port))
        block = b"x" * 65536
        per_writer = rate / writers
        begin = time.time()
        while time.time() < stop:
            if sent[index] < per_writer * (time.time() - begin):
                try:
                    sent[index] += sock.send(block)
                except OSError:
                    break
            else:
                time.sleep(0.001)
        sock.close()

    threads = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    reader.settimeout(0.2)
    received = 0
    while time.time() < stop:
        try:
            received += reader.recv(1 << 16).count(b"\n")
        except socket.timeout:
            pass
    for t in threads:
        t.join()
    gateway.stop()
    err = gateway.log()
    jitter = re.search(r"tick lateness p50 ([0-9.]+) ms, p99 ([0-9.]+) ms", err)
    total = sum(sent) / seconds / 1e6
    print(f"{writers} clients writing {total:.0f} MB/s to the output port for {seconds} s: the reader got "
          f"{received} sentences; tick lateness p50 {jitter.group(1) if jitter else '?'} ms, "
          f"p99 {jitter.group(2) if jitter else '?'} ms")


if __name__ == "__main__":
    run_latency()
    run_writers()
    run_flood()
