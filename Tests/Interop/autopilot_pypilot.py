"""pypilot behind the Autopilot API: a server speaking its documented protocol, and the gateway's pypilot link
through it (engage, adjust, modes, a hostile server, a dropped connection)."""
import json
import math
import select
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.request

from support import Gateway, free_port, wait_for


class PypilotServer(threading.Thread):
    """A pypilot server as its published sources describe the protocol (pypilot/server.py, client.py, autopilot.py;
    pypilot itself is not on PyPI nor in Debian, so it cannot be run here): lines of `name=value` in JSON; `watch=`
    with a JSON object of names asks for them, sent at once and on every change; `name=value` sets one, and its
    watchers are told. `ap.heading_command` is kept to a tenth of a degree, 0 to 360 on the compass, ±180 off the
    wind; `ap.heading` every second to a watcher that asked for it."""

    def __init__(self, host="127.0.0.1", port=0):
        super().__init__(daemon=True)
        self.host = host
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind((host, port))
        self.server.listen(2)
        self.port = self.server.getsockname()[1]
        self.values = {"ap.enabled": False, "ap.mode": "compass", "ap.heading_command": 200.0, "ap.heading": 198.6}
        self.received = []
        self.watching = set()
        self.hostile = []
        self.drop = False
        self.down = 0
        self.stopped = False
        self.lock = threading.Lock()

    def run(self):
        while not self.stopped:
            self.server.settimeout(0.5)
            try:
                connection, _ = self.server.accept()
            except OSError:
                continue
            self.serve(connection)
            if self.down:
                # Gone for a while (pypilot restarting): nobody listening, then back on the same port.
                self.server.close()
                time.sleep(self.down)
                self.down = 0
                self.server = socket.socket()
                self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                self.server.bind((self.host, self.port))
                self.server.listen(2)

    def send(self, connection, name):
        connection.sendall(f"{name}={json.dumps(self.values[name])}\n".encode())

    def serve(self, connection):
        connection.setblocking(False)
        buffer, beat = b"", time.monotonic()
        self.watching = set()
        while not self.stopped and not self.drop:
            ready, _, _ = select.select([connection], [], [], 0.05)
            try:
                if ready:
                    chunk = connection.recv(4096)
                    if not chunk:
                        return
                    buffer += chunk
                while b"\n" in buffer:
                    raw, buffer = buffer.split(b"\n", 1)
                    name, _, value = raw.decode().partition("=")
                    with self.lock:
                        self.received.append(raw.decode())
                    if name == "watch":
                        for watched in json.loads(value):
                            if watched in self.values:
                                self.watching.add(watched)
                                self.send(connection, watched)
                    elif name in self.values:
                        parsed = json.loads(value)
                        if name == "ap.heading_command":
                            wind = "wind" in self.values["ap.mode"]
                            parsed = round((((float(parsed) + 180) % 360) - 180 if wind else float(parsed) % 360) * 10) / 10
                        self.values[name] = parsed
                        if name in self.watching:
                            self.send(connection, name)
                if time.monotonic() - beat >= 1 and "ap.heading" in self.watching:
                    beat = time.monotonic()
                    self.send(connection, "ap.heading")
                    for line in self.hostile:
                        connection.sendall(line)
                    self.hostile = []
            except OSError:
                return
        connection.close()
        self.drop = False


def pypilot_phase(binary, checks):
    server = PypilotServer()
    server.start()
    web = free_port()
    gateway = Gateway(binary, f"""status_line = false
[autopilot]
pypilot = "127.0.0.1:{server.port}"

[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
""", work=tempfile.mkdtemp(prefix="telltale-pypilot-")).start(wait=[web])
    API = "/signalk/v2/api/vessels/self/autopilots/pypilot"

    def call(method, path="", body=None):
        data = json.dumps(body).encode() if body is not None else (b"" if method != "GET" else None)
        request = urllib.request.Request(f"http://127.0.0.1:{web}{API}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")
        except OSError as error:
            return 0, str(error)

    def status():
        code, body = call("GET")
        return body if code == 200 and isinstance(body, dict) else {}

    try:
        heard = wait_for(lambda: status().get("state") == "standby", 15)
        with server.lock:
            watch = next((line for line in server.received if line.startswith("watch=")), "")
        checks(heard and all(name in watch for name in ("ap.enabled", "ap.mode", "ap.heading_command")),
               "pypilot (a server speaking its documented protocol): Telltale watches ap.enabled, ap.mode and "
               "ap.heading_command; the API says standby, compass, 200°", (watch, status()))
        code, _ = call("POST", "/engage")
        engaged = wait_for(lambda: status().get("state") == "auto", 5)
        with server.lock:
            said = list(server.received)
        checks(code == 200 and engaged and 'ap.mode="compass"' in said and "ap.enabled=true" in said,
               "engage: ap.mode=\"compass\", ap.enabled=true sent; auto once pypilot says so", said[-3:])
        code, _ = call("PUT", "/target/adjust", {"value": 10, "units": "deg"})
        moved = wait_for(lambda: abs((status().get("target") or 0) - math.radians(210)) < 0.002, 5)
        checks(code == 200 and moved and "ap.heading_command=210.0" in server.received,
               "+10°: ap.heading_command=210.0, the target back from pypilot", status())
        code, _ = call("PUT", "/mode", {"value": "route"})
        checks(code == 200 and wait_for(lambda: status().get("mode") == "route", 5)
               and 'ap.mode="nav"' in server.received, "mode route: pypilot's nav mode", status())
        code, _ = call("PUT", "/mode", {"value": "wind"})
        wait_for(lambda: status().get("mode") == "wind", 10)
        code, answer = call("PUT", "/target", {"value": -40, "units": "deg"})
        checks(code == 200 and wait_for(lambda: abs((status().get("target") or 0) + math.radians(40)) < 0.002, 10)
               and "ap.heading_command=-40.0" in server.received,
               "in wind mode the target is a wind angle: ap.heading_command=-40.0", (code, answer, status()))
        server.hostile = [b"ap.heading_command=1e999\n", b"ap.enabled=maybe\n", b"x" * 100000 + b"\n",
                          b"ap.mode=" + b'"' + b"y" * 5000 + b'"\n', b"\xff\xfe=\x00\n"]
        time.sleep(2.5)
        checks(gateway.alive() and status().get("mode") == "wind" and abs((status().get("target") or 0)
                                                                         + math.radians(40)) < 0.002,
               "a hostile pypilot (a number past any heading, a boolean that is not, a 100 kB line, a huge mode, bytes "
               "that are not text): passed over, the state as it was, the gateway running", status())
        code, _ = call("POST", "/disengage")
        checks(code == 200 and wait_for(lambda: status().get("state") == "standby", 5)
               and "ap.enabled=false" in server.received, "disengage: ap.enabled=false, standby", status())
        server.down, server.drop = 4, True
        gone = wait_for(lambda: status().get("state") == "off-line", 3)
        code, answer = call("POST", "/engage")
        back = wait_for(lambda: status().get("state") == "standby", 20)
        checks(gone and code in (409, 503) and back, "pypilot's connection dropped: off-line at once, a command refused "
               f"({code}), connected again by itself", answer)
    finally:
        server.stopped = True
        gateway.stop()
