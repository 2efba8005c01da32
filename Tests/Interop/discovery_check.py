"""The gateway found by DNS-SD alone, as WilhelmSK, the JS client and the Python signalk-client find a server.

Two network namespaces joined by a veth pair stand for the Pi and a phone on the boat's Wi-Fi. On the Pi's side:
the gateway, and Debian's avahi-daemon publishing the service file `telltale advertise` writes (the command the
package's unit runs before the gateway starts), in a mount namespace of its own so nothing of this machine's avahi
is touched. On the phone's side, nothing is configured with an address: python-zeroconf browses for the services,
then the PyPI `signalk-client` connects with no server given and must hold position, SOG, AWA, TWS, heading and XTE.
The other way round (#41): a pypilot on the phone's side published as pypilot publishes itself (tinypilot.py), found
by the gateway's own mDNS question (`[autopilot] pypilot = "mdns"`), and found again when it comes back at another
address. Prints 'discovery-check: N passed, M failed'.

    discovery_check.py BINARY (as root)
"""

import atexit
import json
import math
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ROOT, Checks, demo_input  # noqa: E402

binary = os.path.abspath(sys.argv[1])
checks = Checks("discovery-check")
tag = str(os.getpid() % 10000)
PI, PHONE = f"tt-pi{tag}", f"tt-ph{tag}"
PI_IF, PHONE_IF = f"ttp{tag}", f"tth{tag}"
PI_ADDRESS, PHONE_ADDRESS = "10.231.7.1", "10.231.7.2"
work = tempfile.mkdtemp(prefix="telltale-discovery-")
processes = []


def run(*command, check=True):
    return subprocess.run(command, check=check, capture_output=True, text=True)


def cleanup():
    for process in processes:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
    for namespace in (PI, PHONE):
        run("ip", "netns", "delete", namespace, check=False)
    shutil.rmtree(work, ignore_errors=True)


atexit.register(cleanup)
try:
    for namespace in (PI, PHONE):
        run("ip", "netns", "add", namespace)
    run("ip", "link", "add", PI_IF, "type", "veth", "peer", "name", PHONE_IF)
    run("ip", "link", "set", PI_IF, "netns", PI)
    run("ip", "link", "set", PHONE_IF, "netns", PHONE)
    for namespace, interface, address in ((PI, PI_IF, PI_ADDRESS), (PHONE, PHONE_IF, PHONE_ADDRESS)):
        run("ip", "-n", namespace, "addr", "add", address + "/24", "dev", interface)
        run("ip", "-n", namespace, "link", "set", interface, "up", "multicast", "on")
        run("ip", "-n", namespace, "link", "set", "lo", "up")
except (subprocess.CalledProcessError, FileNotFoundError) as error:
    checks(False, "two network namespaces joined by a veth pair (needs root and iproute2)",
           getattr(error, "stderr", str(error)))
    cleanup()
    checks.finish()

demo = os.path.join(ROOT, "Fixtures", "demo-voyage")
config = os.path.join(work, "telltale.toml")
with open(config, "w") as f:
    f.write(f"""talker = "II"
route = "{demo}/route.gpx"
polar = "{demo}/polar.csv"
status_line = false
state_file = ""

{demo_input('instruments', loop=True)}
[[output]]
name = "plotter"
url = "tcp://0.0.0.0:10110"

[autopilot]
pypilot = "mdns"

[web]
listen = "0.0.0.0:3000"
name = "Discovery"
urn = "urn:mrn:signalk:uuid:2f7e6a1c-3b5d-4e8f-9a0b-1c2d3e4f5a6b"
""")
services = os.path.join(work, "services")
os.mkdir(services)
advertised = run(binary, "advertise", "--config", config, "--output", os.path.join(services, "telltale.service"),
                 check=False)
checks(advertised.returncode == 0 and os.path.exists(os.path.join(services, "telltale.service")),
       "telltale advertise writes the service file", advertised.stdout + advertised.stderr)

avahi_conf = os.path.join(work, "avahi-daemon.conf")
with open(avahi_conf, "w") as f:
    f.write(f"""[server]
host-name=telltale-{tag}
use-ipv4=yes
use-ipv6=no
allow-interfaces={PI_IF}
enable-dbus=no
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
""")
runtime = os.path.join(work, "run")
os.makedirs(runtime)
# A mount namespace of its own: avahi reads /etc/avahi/services and keeps its PID under /run/avahi-daemon, both
# bound here to this check's folders.
os.makedirs("/run/avahi-daemon", exist_ok=True)
avahi = subprocess.Popen(
    ["ip", "netns", "exec", PI, "unshare", "--mount", "sh", "-c",
     f"mount --bind {runtime} /run/avahi-daemon && mount --bind {services} /etc/avahi/services && "
     f"exec avahi-daemon --no-drop-root --no-chroot --no-rlimits -f {avahi_conf}"],
    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
processes.append(avahi)
gateway_log = open(os.path.join(work, "gateway.log"), "w")
gateway = subprocess.Popen(["ip", "netns", "exec", PI, binary, "run", "--config", config], stdout=gateway_log,
                           stderr=subprocess.STDOUT)
processes.append(gateway)

# A pypilot on the phone's side of the Wi-Fi, as a TinyPilot publishes itself.
python = os.path.join(ROOT, ".build-interop", "venv", "bin", "python")
tinypilot_script = os.path.join(ROOT, "Tests", "Interop", "tinypilot.py")


def tinypilot(address):
    process = subprocess.Popen(["ip", "netns", "exec", PHONE, python, tinypilot_script, address, PHONE_IF],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    processes.append(process)
    return process


pilot = tinypilot(PHONE_ADDRESS)

# pypilot found before the phone connects: signalk-client builds its tree from the full model it reads at
# connect and cannot take a subtree (steering.*) that first appears afterwards, from any server.
def pypilot_status():
    """The gateway's Autopilot API for pypilot, read from the phone's side."""
    got = run("ip", "netns", "exec", PHONE, python, "-c",
              "import urllib.request, sys; sys.stdout.write(urllib.request.urlopen("
              f"'http://{PI_ADDRESS}:3000/signalk/v2/api/vessels/self/autopilots/pypilot', timeout=3).read().decode())",
              check=False)
    try:
        return json.loads(got.stdout)
    except ValueError:
        return {}


def connected_to(address):
    sockets = run("ip", "netns", "exec", PI, "ss", "-tnH", "state", "established", check=False).stdout
    return f"{address}:23322" in sockets


def gateway_said(text):
    with open(os.path.join(work, "gateway.log")) as f:
        return text in f.read()


deadline = time.monotonic() + 30
while time.monotonic() < deadline and not (pypilot_status().get("state") == "standby" and connected_to(PHONE_ADDRESS)):
    time.sleep(0.5)
pypilot_found = pypilot_status()

# The phone's side: a script that knows no address.
phone = os.path.join(work, "phone.py")
with open(phone, "w") as f:
    f.write(r'''
import json, logging, socket, sys, time
from zeroconf import ServiceBrowser, Zeroconf, ServiceListener

found = {}
class Listener(ServiceListener):
    def add_service(self, zc, kind, name):
        info = zc.get_service_info(kind, name, timeout=3000)
        if info:
            found[kind] = {"name": name, "port": info.port, "server": info.server,
                           "addresses": [socket.inet_ntoa(a) for a in info.addresses],
                           "txt": {k.decode(): (v or b"").decode() for k, v in info.properties.items()}}
    def update_service(self, zc, kind, name):
        self.add_service(zc, kind, name)
    def remove_service(self, zc, kind, name):
        pass

zc = Zeroconf()
kinds = ["_signalk-http._tcp.local.", "_signalk-ws._tcp.local.", "_http._tcp.local.", "_nmea-0183._tcp.local."]
browsers = [ServiceBrowser(zc, kind, Listener()) for kind in kinds]
deadline = time.monotonic() + 30
while time.monotonic() < deadline and len(found) < len(kinds):
    time.sleep(0.2)
# The host name the services point at, resolved by mDNS (as a phone's resolver does) for signalk-client's requests.
hosts = {}
for entry in found.values():
    if entry["addresses"]:
        hosts[entry["server"].rstrip(".")] = entry["addresses"][0]
zc.close()
original = socket.getaddrinfo
def getaddrinfo(host, *args, **kwargs):
    return original(hosts.get(str(host).rstrip("."), host), *args, **kwargs)
socket.getaddrinfo = getaddrinfo

result = {"found": found}
logging.basicConfig(level=logging.WARNING)
errors = []
class Catch(logging.Handler):
    def emit(self, record):
        if record.levelno >= logging.ERROR:
            errors.append(record.getMessage())
logging.getLogger().addHandler(Catch())
try:
    from signalk_client.client import Client
    started = time.monotonic()
    client = Client()
    result["connected"] = round(time.monotonic() - started, 1)
    time.sleep(6)
    me = client.data.get_self()
    values = {}
    for path in ["navigation.position", "navigation.speedOverGround", "environment.wind.angleApparent",
                 "environment.wind.speedTrue", "navigation.headingTrue", "navigation.courseGreatCircle.crossTrackError",
                 "navigation.course.calcValues.crossTrackError"]:
        try:
            values[path] = me.get_datum(path).value
        except Exception as error:
            values[path] = "missing: %r" % error
    result["values"] = values
except Exception as error:
    result["error"] = repr(error)
result["errors"] = errors
print(json.dumps(result))
''')
reply = subprocess.run(["ip", "netns", "exec", PHONE, python, phone], capture_output=True, text=True, timeout=120)
try:
    result = json.loads(reply.stdout.strip().splitlines()[-1])
except (ValueError, IndexError):
    result = {}
found = result.get("found", {})
http = found.get("_signalk-http._tcp.local.", {})
txt = http.get("txt", {})
checks(PI_ADDRESS in http.get("addresses", []) and http.get("port") == 3000,
       f"_signalk-http._tcp found from the phone, on {http.get('addresses')}:{http.get('port')}", reply.stderr[-600:])
checks(txt.get("txtvers") == "1" and txt.get("roles") == "master,main" and txt.get("swname") == "telltale"
       and txt.get("self") == "urn:mrn:signalk:uuid:2f7e6a1c-3b5d-4e8f-9a0b-1c2d3e4f5a6b" and txt.get("swvers"),
       "its TXT: txtvers, roles, self, swname, swvers", txt)
checks(found.get("_signalk-ws._tcp.local.", {}).get("port") == 3000, "_signalk-ws._tcp found")
checks(found.get("_http._tcp.local.", {}).get("port") == 3000, "_http._tcp found (the panel)")
checks(found.get("_nmea-0183._tcp.local.", {}).get("port") == 10110, "_nmea-0183._tcp found (the TCP output)")
checks("connected" in result and not result.get("error"),
       f"signalk-client connects with no address given ({result.get('connected')} s)", result.get("error", ""))
checks(not result.get("errors"), "signalk-client logs no error (no KeyError 'values' on meta-only updates)",
       result.get("errors", [])[:3])
values = result.get("values", {})
held = [path for path, value in values.items() if value is not None and not str(value).startswith("missing")]
wanted = ["navigation.position", "navigation.speedOverGround", "environment.wind.angleApparent",
          "environment.wind.speedTrue", "navigation.headingTrue", "navigation.course.calcValues.crossTrackError"]
checks(all(path in held for path in wanted), "signalk-client holds position, SOG, AWA, TWS, heading and XTE",
       {path: values.get(path) for path in wanted})


status = pypilot_status()
checks(status.get("state") == "standby" and abs((status.get("target") or 0) - math.radians(200)) < 1e-6
       and connected_to(PHONE_ADDRESS),
       "pypilot published as its zeroconf_service.py does is found by the gateway's mDNS question: its state and "
       "target in the Autopilot API", status)
checks(gateway_said(f"found pypilot-{PHONE_IF}._pypilot._tcp.local at {PHONE_ADDRESS}:23322 by mDNS"),
       "the gateway's log says where it found pypilot")
# pypilot comes back from a restart with another address (the access point's DHCP gave it a new one).
pilot.terminate()
pilot.wait(10)
MOVED = "10.231.7.3"
run("ip", "-n", PHONE, "addr", "add", MOVED + "/24", "dev", PHONE_IF)
tinypilot(MOVED)
started = time.monotonic()
while time.monotonic() - started < 45 and not (connected_to(MOVED) and pypilot_status().get("state") == "standby"):
    time.sleep(0.5)
checks(connected_to(MOVED) and pypilot_status().get("state") == "standby",
       f"pypilot back at another address is looked for and found again ({time.monotonic() - started:.0f} s)",
       pypilot_status())
checks(gateway.poll() is None, "the gateway ran throughout")
checks.finish()
