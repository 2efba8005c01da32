"""The SD-card image's figures, measured inside the emulated Pi (Benchmarks/image.sh):

- the image's size, written and (when `make image` compressed it) as .img.xz;
- the time from power-on to the first computed sentence on TCP 10110, under emulation (QEMU's virt board on this
  machine's cores: a Pi 3 or Zero 2 W boots its own way, from its own firmware);
- the gateway's VmRSS, VmHWM (its peak, start-up included) and PSS in the guest, with the instruments on a USB adapter,
  33 AIS stations on a second adapter, one NMEA client on TCP and three panels open (three Signal K WebSocket
  streams), and the NMEA 2000 bus on can0 with a real bus recording (../shared's EV-1/ACU200 autopilot among it)
  played onto it by canplayer and the pilot commanded through the Autopilot API, after a minute, and again after three;
- the whole system's used memory after boot, against the Zero 2 W's 512 MB;
- the daemon's memory and loop while a route is planned (image_routing.py) and while the calibration is learnt from
  a day of a real log in the history (image_calibration.py).

    image_bench.py IMAGE [SECONDS]
"""
import json
import os
import re
import socket
import sys
import time
import urllib.error
import urllib.request

import websocket

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Pi"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
from emulated_pi import MIB, Card, EmulatedPi, SerialFeed, make_key, scratch  # noqa: E402
from support import OutputReader, ais_class_b, sentence, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402
from image_calibration import calibration_phase  # noqa: E402
from image_routing import routing_phase  # noqa: E402

image = sys.argv[1]
seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 180
work = scratch("telltale-image-bench-")
print(f"image: {os.path.getsize(image) / MIB:.0f} MiB written ({image})")
if os.path.exists(image + ".xz"):
    print(f"image: {os.path.getsize(image + '.xz') / MIB:.0f} MiB compressed ({image}.xz)")

# The adapters by their stable names (two plugged in at power-on come up as ttyUSB0 and ttyUSB1 in either order).
BY_ID = "/dev/serial/by-id/usb-QEMU_QEMU_USB_SERIAL_{}-if00-port0"
card = Card.from_image(image, work)
key, public = make_key(work)
card.put("authorized_keys", public)
card.put("telltale.toml", (card.get("telltale.toml") or b"").decode().replace(
    "/dev/serial0?baud=4800", BY_ID.format("TT0001") + "?baud=4800\"\n\n[[input]]\nname = \"ais\"\nurl = \"serial://"
    + BY_ID.format("TT0002") + "?baud=38400") + '\n[n2k]\nbus = "can://can0"\n')
# The boat's polar on the boot partition, for the router.
card.put("polar.csv", open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "demo-voyage",
                                        "polar.csv"), "rb").read())
card.put("telltale.toml", 'polar = "/boot/firmware/polar.csv"\n' + card.get("telltale.toml").decode())


def instruments(index):
    return [sentence("WIMWV,045.0,R,12.0,N,A"), sentence("VWVHW,,T,,M,6.0,N,11.1,K"),
            sentence("HEHDT,090.0,T")][index % 3]


def traffic(index):
    """33 ships off the Solent, class B reports, each every few seconds (an AIS receiver at 38400 baud)."""
    ship = index % 33
    return ais_class_b(235000000 + ship, f"SHIP {ship}", 50.70 + ship * 0.003, -1.40 + (ship % 7) * 0.01,
                       4 + ship % 6, (ship * 37 + index // 33) % 360)


ADAPTERS = [("adapter", "TT0001"), ("ais", "TT0002")]
# First boot (the data partition made): the emulated Pi with its adapters plugged in from power-on.
pi = EmulatedPi(card, work, key=key).boot(usb_serials=ADAPTERS)
feed = SerialFeed(pi.chardevs["adapter"], instruments, rate=10)
output = OutputReader(pi.nmea, reconnect=True)
wait_for(lambda: any(",T," in line for _, line in output.lines()), 400, step=0.5)
print(f"first boot: first computed sentence on TCP {time.monotonic() - pi.started:.0f} s after power-on (emulated)")
pi.wait_ready()
pi.shutdown()

# Second boot, as every boot after the first, the AIS adapter talking from power-on.
pi = EmulatedPi(card, work, key=key).boot(usb_serials=ADAPTERS)
feed.stop()
feed = SerialFeed(pi.chardevs["adapter"], instruments, rate=10)
ais = SerialFeed(pi.chardevs["ais"], traffic, rate=12)
output = OutputReader(pi.nmea, reconnect=True)
first = wait_for(lambda: any(",T," in line for _, line in output.lines()), 400, step=0.2)
print(f"boot: first computed sentence on TCP {time.monotonic() - pi.started:.0f} s after power-on (emulated)"
      if first else "boot: no computed sentence within 400 s")
pi.wait_ready()
panels = []
for _ in range(3):
    panels.append(websocket.create_connection(f"ws://127.0.0.1:{pi.web}/signalk/v1/stream?subscribe=self", timeout=10))


def drain():
    for panel in panels:
        panel.settimeout(0.01)
        try:
            while True:
                panel.recv()
        except (websocket.WebSocketTimeoutException, socket.timeout, OSError):
            pass


def figures(label):
    pid = pi.out("systemctl show -p MainPID --value telltale")
    status = pi.out(f"grep -E 'VmRSS|VmHWM|RssAnon|RssFile' /proc/{pid}/status | tr -s ' ' | tr '\\n' ' '")
    pss = pi.out(f"grep -E '^Pss:' /proc/{pid}/smaps_rollup | tr -s ' '")
    print(f"{label}: telltale {status}{pss}")
    # Where the resident kilobytes are: each mapped file by its permissions (and the anonymous memory), 8 kB or more.
    mappings = pi.out(f"awk '/^[0-9a-f]+-[0-9a-f]+ /{{n=$6 \" \" $2; if($6==\"\")n=\"[anon]\"}} /^Rss:/{{r[n]+=$2}} "
                      f"END{{for(n in r) if(r[n]>=8) printf \"%s %d kB; \", n, r[n]}}' /proc/{pid}/smaps")
    print(f"{label}: telltale's resident memory by mapping: {mappings}")
    releases = pi.out("journalctl -b -u telltale -o cat | grep -F 'memory:' | tr '\\n' ' '")
    print(f"{label}: telltale's own pages given back: {releases}")
    system = pi.out("free -k | sed -n 2p | tr -s ' '")
    print(f"{label}: system {system} (total used free shared cache available, KiB)")


def request(path, method="GET", body=None, token=None):
    return HTTP(pi.web, timeout=20).text(path, method=method, body=body, token=token)


# The bus: a real recording played onto can1 (the emulated bus's other node), its autopilot commanded as a crew
# would: engaged, then ten turns of a degree, from this laptop once approved on the Pi.
SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "fixtures", "n2k",
                      "candumpSample3.txt")
label = "33 AIS stations, 1 NMEA client and 3 panels"
if os.path.exists(SHARED):
    with open(SHARED) as f:
        recording = "".join(re.sub(r"\) \S+ ", ") can1 ", line) for line in f if line.startswith("("))
    pi.put("/run/bus.log", recording.encode())
    pi.ssh("systemd-run --quiet --unit=canplayer canplayer -I /run/bus.log -l i", timeout=30)
    code, body = request("/signalk/v1/access/requests", "POST", json.dumps(
        {"clientId": "3c0b6f2e-8d41-4a7e-9b15-2f6e0c9d4a71", "description": "image bench",
         "permissions": "readwrite"}).encode())
    request_id = json.loads(body).get("requestId", "") if code == 202 else ""
    pi.ssh(f"telltale access approve {request_id[:8]}")
    code, body = request("/signalk/v1/requests/" + request_id)
    token = ((json.loads(body) if code == 200 else {}).get("accessRequest") or {}).get("token")
    pilot = "/signalk/v2/api/vessels/self/autopilots/raymarine-204"
    heard = wait_for(lambda: request(pilot)[0] == 200, 60, step=1)
    codes = [request(pilot + "/engage", "POST", b"", token=token)[0]]
    for _ in range(10):
        codes.append(request(pilot + "/target/adjust", "PUT", b'{"value": 1, "units": "deg"}', token=token)[0])
        time.sleep(0.5)
    print(f"bus: the recorded EV-1 pilot {'heard' if heard else 'NOT heard'}; engaged and turned ten times: {codes}")
    label += ", the NMEA 2000 bus with a recorded bus and its pilot commanded"
else:
    token = None
    print("bus: ../shared/fixtures/n2k is absent: the bus is on but idle (skipped: the recorded pilot)")

start = time.monotonic()
reported = set()
while time.monotonic() - start < seconds:
    drain()
    time.sleep(0.5)
    elapsed = time.monotonic() - start
    for mark in (60, seconds):
        if elapsed >= mark and mark not in reported:
            reported.add(mark)
            figures(f"after {mark} s, {label}")
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{pi.web}/signalk/v1/api/vessels", timeout=10) as response:
        vessels = [k for k in json.load(response) if k.startswith("urn:mrn:imo:mmsi:")]
except (OSError, ValueError):
    vessels = []
print(f"AIS: {len(vessels)} stations in the gateway's Signal K model")
routing_phase(pi, output, request, token, work)
calibration_phase(pi, request, token, feed)
processes = pi.out("ps -eo rss,comm --sort=-rss | head -n 6 | tr -s ' ' | tr '\\n' ';'")
print(f"gpsd: {pi.out('systemctl is-active gpsd.service')}; processes by memory (RSS KiB): {processes}")
print(pi.out("journalctl -u telltale -b --no-pager | grep memory: | tail -n 1"))
for panel in panels:
    panel.close()
feed.stop()
ais.stop()
output.stop()
pi.shutdown()
