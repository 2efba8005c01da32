"""Which functions the daemon's loop runs, for the Pi build's link order (Tests/Pi/loop-profile.sh).

The arm64 build, with its symbols, runs `telltale run` under qemu-aarch64 with every executed block of its own code
traced (`-d exec,nochain`) into a pipe that loop_trace counts. The load is the image benchmark's, as far as qemu-user
can carry it: the bench profile's demo voyage and IMU, instruments (MWV, VHW, HDT at 10 Hz) on one pseudo-terminal
and 33 AIS class B stations on another, the history on, one NMEA client on TCP, three Signal K streams and the
panel's and the API's requests. Start-up is left to finish first (a minute after the inputs open: the trace slows the
program some tenfold); what runs after it is the loop. Writes the loop's functions, the most run first, then those
only start-up ran, to OUTPUT.

    loop_profile.py BINARY TRACER OUTPUT [SECONDS]
"""
import bisect
import collections
import os
import pty
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty
import urllib.request

import websocket

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
from support import ais_class_b, sentence  # noqa: E402

BASE = 0x5500000000  # where qemu-aarch64 loads a position-independent program
NMEA, WEB = 10197, 3097


def configuration(work, instruments, ais):
    """The bench profile on this tree, the history on, the panel from the tree, two serial inputs."""
    text = open(os.path.join(ROOT, "Boards", "bench.toml")).read()
    text = text.replace("10110", str(NMEA)).replace('"0.0.0.0:3000"', f'"0.0.0.0:{WEB}"')
    text = text.replace("../Fixtures", os.path.join(ROOT, "Fixtures")).replace("../.build", os.path.join(work, "build"))
    text = text.replace('board = "bench"', f'board = "bench"\nstate_file = "{work}/state/state.toml"')
    text = text.replace("[web]\n", f'[web]\npanel = "{ROOT}/Sources/Panel"\n')
    text += (f'\n[[input]]\nname = "instruments"\nurl = "serial://{instruments}?baud=4800"\n'
             f'\n[[input]]\nname = "ais"\nurl = "serial://{ais}?baud=38400"\n')
    path = os.path.join(work, "profile.toml")
    open(path, "w").write(text)
    os.makedirs(os.path.join(work, "state"), exist_ok=True)
    return path


def terminal():
    """A pseudo-terminal in raw mode: the master to write, the slave's name for the gateway."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


def feed(masters, stop):
    """The instruments at 10 Hz, and an AIS station a tenth of a second."""
    index = 0
    while not stop.is_set():
        ship = index % 33
        lines = [(masters[0], sentence(body)) for body in
                 ("WIMWV,045.0,R,12.0,N,A", "VWVHW,,T,,M,6.0,N,11.1,K", "HEHDT,090.0,T")]
        lines.append((masters[1], ais_class_b(235000000 + ship, f"SHIP {ship}", 50.70 + ship * 0.003,
                                              -1.40 + (ship % 7) * 0.01, 4 + ship % 6,
                                              (ship * 37 + index // 33) % 360)))
        for fd, data in lines:
            try:
                os.write(fd, data)
            except OSError:
                pass
        index += 1
        time.sleep(0.1)


def clients(seconds):
    """One NMEA client, three streams and a request every two seconds, for `seconds`."""
    nmea = socket.create_connection(("127.0.0.1", NMEA), timeout=60)
    nmea.settimeout(0.2)
    streams = [websocket.create_connection(f"ws://127.0.0.1:{WEB}/signalk/v1/stream?subscribe=self", timeout=60)
               for _ in range(3)]
    for stream in streams:
        stream.settimeout(0.05)
    paths = ["/", "/app.js", "/signalk", "/signalk/v1/api/vessels/self", "/signalk/v2/api/vessels/self/autopilots",
             "/signalk/v1/api/vessels/self/navigation/position", "/telltale/v1/status"]
    end, turn = time.time() + seconds, 0
    while time.time() < end:
        try:
            nmea.recv(65536)
        except OSError:
            pass
        for stream in streams:
            try:
                stream.recv()
            except (OSError, websocket.WebSocketException):
                pass
        if turn % 20 == 0:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{WEB}{paths[(turn // 20) % len(paths)]}", timeout=60).read()
            except OSError as error:
                print(f"loop_profile: GET: {error}")
        turn += 1
        time.sleep(0.1)


def functions(binary, counts):
    """The program's functions that the counted addresses fall in, the most run first."""
    listing = subprocess.run(["aarch64-linux-gnu-nm", "-n", "-S", "--defined-only", binary],
                             capture_output=True, text=True, check=True).stdout
    symbols = [(int(a, 16), int(s, 16), name) for a, s, kind, name in
               (line.split() for line in listing.splitlines() if len(line.split()) == 4)
               if kind in "tT"]
    starts = [start for start, _, _ in symbols]
    runs = collections.Counter()
    for line in open(counts):
        address, count = line.split()
        offset = int(address, 16) - BASE
        i = bisect.bisect_right(starts, offset) - 1
        if i >= 0 and offset < symbols[i][0] + max(symbols[i][1], 4):
            runs[symbols[i][2]] += int(count)
    size = {name: length for _, length, name in symbols}
    return sorted(runs, key=lambda name: -runs[name]), size


def main():
    binary, tracer, output = sys.argv[1:4]
    seconds = int(sys.argv[4]) if len(sys.argv) > 4 else 120
    work = tempfile.mkdtemp(prefix="telltale-loop-profile-")
    terminals = [terminal(), terminal()]
    config = configuration(work, terminals[0][2], terminals[1][2])
    fifo, prefix = os.path.join(work, "trace"), os.path.join(work, "blocks")
    os.mkfifo(fifo)
    counter = subprocess.Popen([tracer, fifo, prefix])
    sysroot = os.path.join(ROOT, ".build-pi", "arm64", "sysroot")
    log = open(os.path.join(work, "gateway.log"), "w")
    gateway = subprocess.Popen(
        ["qemu-aarch64", "-d", "exec,nochain", "-dfilter", f"{BASE:#x}+0x1000000", "-D", fifo,
         "-L", "/usr/aarch64-linux-gnu", "-E",
         f"LD_LIBRARY_PATH={sysroot}/usr/lib/aarch64-linux-gnu:{sysroot}/lib/aarch64-linux-gnu",
         binary, "run", "--config", config], stdout=log, stderr=subprocess.STDOUT)
    stop = threading.Event()
    threading.Thread(target=feed, args=([t[0] for t in terminals], stop), daemon=True).start()
    start = time.time()
    while time.time() - start < 600 and "input ais:" not in open(log.name).read():
        time.sleep(2)
    time.sleep(60)
    open(prefix + ".loop", "w").close()
    print(f"loop_profile: start-up over {time.time() - start:.0f} s in; the loop traced for {seconds} s")
    clients(seconds)
    stop.set()
    gateway.terminate()
    gateway.wait(timeout=120)
    counter.wait(timeout=600)
    hot, size = functions(binary, prefix + ".2")
    # Then what start-up alone runs, so that start-up too touches a stretch of pages rather than the whole text.
    loop = set(hot)
    startup = [name for name in functions(binary, prefix + ".1")[0] if name not in loop]
    with open(output, "w") as out:
        out.write("".join(name + "\n" for name in hot + startup))
    print(f"loop_profile: the loop's {len(hot)} functions ({sum(size[n] for n in hot)} bytes of code), then start-up's "
          f"{len(startup)} ({sum(size[n] for n in startup)} bytes), written to {output}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
