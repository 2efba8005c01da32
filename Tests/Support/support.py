"""What the checks and benchmarks written in Python share: counting checks, free ports, NMEA checksums, waiting,
starting and stopping the gateway on a configuration.

A check prints `ok`/`FAIL` per line and `<name>: N passed, M failed` at the end, which `.ci/run` counts. Scripts
import this with the folder on their path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
"""
import atexit
import os
import socket
import subprocess
import sys
import tempfile
import time

from output_reader import OutputReader  # noqa: F401 (re-exported: the checks import it from here)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Checks:
    """Counts checks and says `name: N passed, M failed` at the end: from `finish`, or, when the script stops before
    it (an exception, an early exit), on the way out, with the stop counted as a failure."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.finished = False
        atexit.register(self._stopped_early)

    def _stopped_early(self):
        if not self.finished:
            self.failed += 1
            print(f"{self.name}: stopped before its end")
            print(self.line())
            sys.stdout.flush()

    def __call__(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print(f"  ok   {what}")
        else:
            self.failed += 1
            print(f"  FAIL {what}" + (f": {detail}" if detail else ""))
        sys.stdout.flush()
        return ok

    def line(self):
        return f"{self.name}: {self.passed} passed, {self.failed} failed"

    def stage(self, title):
        """Says where a long check has got to and when: `== NAME at 312 s: title`."""
        if not hasattr(self, "began"):
            self.began = time.monotonic()
        print(f"== {self.name} at {time.monotonic() - self.began:.0f} s: {title}")
        sys.stdout.flush()

    def finish(self):
        self.finished = True
        print(self.line())
        sys.exit(1 if self.failed else 0)


def free_port(kind=socket.SOCK_STREAM):
    s = socket.socket(socket.AF_INET, kind)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def checksum(body):
    """The NMEA checksum of a sentence's body (between `$` and `*`), two upper-case hex digits."""
    value = 0
    for byte in body.encode():
        value ^= byte
    return f"{value:02X}"


def sentence(body):
    """`$body*hh` and CR LF, as bytes."""
    return f"${body}*{checksum(body)}\r\n".encode()


def wait_for(predicate, seconds, step=0.1):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def wait_for_ports(*ports, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            for port in ports:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def stop(process):
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Gateway:
    """`telltale run` on a configuration written for it: its log in a file beside the configuration, started by
    `start` (waiting for the ports it should listen on), stopped with SIGTERM by `stop`.

        gateway = Gateway(binary, toml_text).start(wait=[web_port])
        ...
        gateway.stop(); print(gateway.log())
    """

    def __init__(self, binary, config, work=None, runner=(), arguments=(), stdout=None, env=None, name="telltale"):
        self.binary = binary
        self.work = work or tempfile.mkdtemp()
        self.config = os.path.join(self.work, name + ".toml")
        with open(self.config, "w") as f:
            f.write(config)
        self.log_path = self.config + ".log"
        self.runner = list(runner)
        self.arguments = list(arguments)
        self.stdout = stdout
        self.env = env
        self.process = None

    def start(self, wait=(), seconds=10):
        log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            self.runner + [self.binary, "run", "--config", self.config] + self.arguments,
            stderr=log, stdout=self.stdout if self.stdout is not None else log, env=self.env)
        log.close()
        # A check that stops half way (a traceback) must not leave its gateway running.
        atexit.register(lambda process=self.process: process.poll() is None and stop(process))
        if wait and not wait_for_ports(*wait, seconds=seconds):
            print(f"the gateway did not listen on {list(wait)}:\n{self.log()[-2000:]}")
        return self

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def stop(self):
        if self.process is not None:
            stop(self.process)
        return self.process.returncode if self.process is not None else None

    def interrupt(self):
        """SIGINT, then the exit status (the gateway stops cleanly on it)."""
        self.process.send_signal(2)
        try:
            return self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def log(self):
        try:
            return open(self.log_path).read()
        except OSError:
            return ""


def memory_kb(pid, field="VmRSS"):
    """A process's memory figure from /proc/PID/status (VmRSS, VmHWM, RssAnon...), in KB; 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def bench_profile(nmea_port, web_port):
    """Boards/bench.toml as `make run` has it, on loopback ports of the caller's choosing, paths absolute, with no
    status line and no state file."""
    profile = open(os.path.join(ROOT, "Boards", "bench.toml")).read().replace("../", ROOT + "/")
    profile = profile.replace("0.0.0.0:10110", f"127.0.0.1:{nmea_port}").replace("0.0.0.0:3000", f"127.0.0.1:{web_port}")
    return 'status_line = false\nstate_file = ""\n' + profile


def chart_settings(charts, web_port):
    """The end of a configuration for the chart page: the phone opens on the chart, the charts folder, no online
    layer (no internet in a check), the web server."""
    return f"""[panel]
start = "chart"
[chart]
charts = "{charts}"
base_layer = ""
seamarks = ""
[web]
listen = "127.0.0.1:{web_port}"
"""


def make_mbtiles(path, metadata, tiles):
    """An MBTiles file: `metadata` pairs, `tiles` as (z, x, y, png bytes) with y counted from the north (XYZ, as the
    web does); rows are stored from the south (TMS), as the format says."""
    import sqlite3
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
    db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    db.executemany("INSERT INTO metadata VALUES (?, ?)", metadata)
    db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", ((z, x, 2 ** z - 1 - y, data) for z, x, y, data in tiles))
    db.commit()
    db.close()


def nmea_position(degrees, hemispheres):
    """A latitude (`"NS"`) or longitude (`"EW"`) as NMEA 0183 writes it: `5046.8000,N`."""
    value = abs(degrees)
    whole = int(value)
    width = 2 if hemispheres == "NS" else 3
    return f"{whole:0{width}d}{(value - whole) * 60:07.4f}," + (hemispheres[0] if degrees >= 0 else hemispheres[1])


def ais_class_b(mmsi, name, lat, lon, sog, cog):
    """A class B extended report (AIS message 19) as one !AIVDM sentence, as bytes: position, course, speed, name."""
    fields = [(19, 6), (0, 2), (mmsi, 30), (0, 8), (round(sog * 10), 10), (1, 1), (round(lon * 600000), 28),
              (round(lat * 600000), 27), (round(cog * 10), 12), (round(cog), 9), (0, 6), (0, 4)]
    bits = "".join(format(value & ((1 << width) - 1), f"0{width}b") for value, width in fields)
    for ch in name.upper().ljust(20, "@")[:20]:
        code = ord(ch)
        bits += format(code - 64 if code >= 64 else code, "06b")
    bits += format(36, "08b") + format(8, "09b") + format(4, "09b") + format(2, "06b") + format(2, "06b")
    bits += "0" * (312 - len(bits))
    payload = "".join(chr(v + 48 if v < 40 else v + 56) for v in (int(bits[i:i + 6], 2) for i in range(0, 312, 6)))
    body = f"AIVDM,1,1,,B,{payload},0"
    return f"!{body}*{checksum(body)}\r\n".encode()


DEMO = os.path.join(ROOT, "Fixtures", "demo-voyage")


def demo_input(name="demo-voyage", speed=None, loop=False, folder=DEMO):
    """The `[[input]]` that plays the demo voyage's log (Fixtures/demo-voyage/voyage.nmea), at `speed` times real time,
    over and over with `loop`."""
    text = f'[[input]]\nname = "{name}"\nurl = "file:{folder}/voyage.nmea"\n'
    if loop:
        text += "loop = true\n"
    if speed is not None:
        text += f"speed = {speed}\n"
    return text


def demo_route():
    """The top-level keys that give the engine the demo voyage's route and polar."""
    return f'route = "{DEMO}/route.gpx"\npolar = "{DEMO}/polar.csv"\n'
