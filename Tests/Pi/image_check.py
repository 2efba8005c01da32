"""The SD-card image, booted (Tests/Pi/image-check.sh; `make image` builds it first):

 1. The image: its size, and the boot partition a sailor edits (telltale.toml that check-config accepts, network.toml,
    README.txt; config.txt with the GPIO UART and I2C on, no serial console on cmdline.txt, the root read-only).
 2. First boot, no keyboard and no screen, in QEMU's virt board: the data partition is made and fills the card; the
    root is read-only under a RAM overlay; the gateway serves the panel and TCP 10110 within the time limit; the
    access point's name and passphrase are written to the boot partition and shown by the settings page, to a laptop
    only once it has asked for access and been approved on the Pi with `telltale access approve`; SSH only
    with the key put on the boot partition; the unit's hardening on a real systemd (systemd-analyze security at or
    below 2.0); gpsd does not take the FTDI adapter (defect 7).
 3. A USB adapter plugged in after boot (device_add), unplugged and plugged again while sentences flow: the input
    opens and comes back through /dev/serial/by-id with no restart of the service (defect 1); what the instruments
    send comes out computed on TCP 10110 and in Signal K. A GRIB file sent from the laptop as the panel sends it is
    imported on the Pi (its ecCodes, in the import's own process, under the unit's sandbox) and taken.
 3b. The NMEA 2000 bus, on two of QEMU's emulated CAN controllers (kvaser_pci) on one emulated bus: both up at
    250 kbit/s; Telltale's true wind, heading, heel and pitch and route guidance read back with candump and decoded by
    PyPI's nmea2000; ISO requests answered (claim, product information) and refused (NAK); its address given up to a
    lower NAME and defended against a higher one; a recorded bus played with canplayer coming out as computed true
    wind on TCP and in Signal K from the bus's device; `telltale n2k`; can0 down and up again without a restart.
 4. Power cut while the gateway records, while a configuration is being saved from the settings page, and while the
    fleet uplink queues on the data partition with its link to the shore cut (Debian's mosquitto on the laptop,
    `telltale fleet` watching): the next boot is clean, the configuration is the old or the new one whole, the
    recording is readable to its last seconds, the approved laptop still approved, and the batches queued before the
    cut reach the shore once the link is back, late, with no number missing.
 5. A new image written over the card, with a newer telltale package in updates/ on its boot partition: the data
    partition (configuration, recordings) is kept, the package is installed at boot, and the Pi restarts into it.
 5b. On copies of that card: the boot partition late (its entry taken off the card's table, the partition plugged in
    as a drive of its own once the boot has gone on), holding a telltale.toml that does not parse; and the boot
    partition broken (its first sector zeroed) with emergency mode asked for on the kernel's command line. Each boot
    serves computed true wind on TCP and Signal K on the data partition's configuration, says what happened on the
    panel and in the gateway's log, and ends in neither emergency nor rescue mode; the late partition mounted when it
    appears, its bad configuration refused, one naming a polar not on the card taken and run without it.

Prints ok/FAIL per check and `image-check: N passed, M failed`.

    image_check.py IMAGE TELLTALE_DEB HOST_TELLTALE
"""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import Checks, OutputReader, free_port, wait_for  # noqa: E402
from emulated_pi import MIB, Card, EmulatedPi, SerialFeed, make_key, scratch  # noqa: E402
from image_support import Link, computed_true_wind, http  # noqa: E402
from image_support import instruments, instruments_with_fix  # noqa: E402
from image_n2k_own import own_frames  # noqa: E402
from image_n2k_played import recorded_bus  # noqa: E402
from image_n2k_pilots import recorded_pilots  # noqa: E402
from image_update import new_image  # noqa: E402
from image_boot_partition import boot_partition_late_and_broken  # noqa: E402
from image_raspi3 import raspberry_pi_3  # noqa: E402
from image_power_cut import power_cut  # noqa: E402

image, package, host_telltale = sys.argv[1:4]
check = Checks("image-check")
work = scratch("telltale-image-")
ADAPTER_SERIAL = "TT0001"
BY_ID = f"/dev/serial/by-id/usb-QEMU_QEMU_USB_SERIAL_{ADAPTER_SERIAL}-if00-port0"
BOOT_LIMIT = 240  # seconds from power-on to the first computed sentence, under emulation (a Pi is faster)


check.stage("the image and its boot partition")
# 1. The image and its boot partition.
size = os.path.getsize(image)
check(size < 2048 * MIB, f"the image ({size // MIB} MiB) ends before the data partition's place (2048 MiB)")
card = Card.from_image(image, work)
boot_files = card.list()
for name in ("telltale.toml", "network.toml", "README.txt", "config.txt", "cmdline.txt", "bootcode.bin", "start.elf",
             "start4.elf", "bcm2837-rpi-3-b.dtb", "bcm2711-rpi-4-b.dtb", "bcm2837-rpi-zero-2-w.dtb"):
    check(name in boot_files, f"the boot partition holds {name}")
config_txt = (card.get("config.txt") or b"").decode()
check("enable_uart=1" in config_txt and "dtparam=i2c_arm=on" in config_txt and "arm_64bit=1" in config_txt,
      "config.txt: the GPIO UART and I2C on, 64-bit")
cmdline = (card.get("cmdline.txt") or b"").decode()
check(re.search(r"\bro\b", cmdline) is not None and "fsck.repair=yes" in cmdline
      and not re.search(r"console=(ttyS|ttyAMA|serial)", cmdline),
      "cmdline.txt: the root read-only, repairs without asking, no console on the GPIO UART", cmdline.strip())
with open(os.path.join(work, "boot-telltale.toml"), "wb") as f:
    f.write(card.get("telltale.toml") or b"")
result = subprocess.run([host_telltale, "check-config", f.name], capture_output=True, text=True)
check(result.returncode == 0, "the boot partition's telltale.toml passes check-config", result.stdout + result.stderr)
with open(os.path.join(work, "boot-network.toml"), "wb") as f:
    f.write(card.get("network.toml") or b"")
result = subprocess.run([host_telltale, "network", "--settings", f.name, "--state", os.path.join(work, "ns"),
                         "--output", os.path.join(work, "nout")], capture_output=True, text=True)
check(result.returncode == 0 and "access point" in result.stdout and not result.stderr,
      "its network.toml is valid: the boat's own access point", result.stdout + result.stderr)

# The sailor's edits, made on a laptop: the USB adapter by its stable name, the black box on; the key for SSH.
key, public = make_key(work)
card.put("authorized_keys", public)
configuration = (card.get("telltale.toml") or b"").decode().replace(
    'url = "serial:///dev/serial0?baud=4800"', 'url = "serial:///dev/serial0?baud=4800"\n\n[[input]]\n'
    f'name = "usb"\nurl = "serial://{BY_ID}?baud=4800"') + '\n[record]\ndirectory = "/var/log/telltale"\n'
# The fleet uplink to a broker on the laptop (QEMU's user network puts the laptop's loopback at 10.0.2.2), through a
# link the check can cut, and the shore's view of it: `telltale fleet` on the laptop.
BROKER, FLEET = free_port(), free_port()


# The NMEA 2000 bus on the first of QEMU's two emulated CAN controllers (the second is the check's own node); an IMU
# trace and the demo route, so that heel and pitch and route guidance go onto the bus too.
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
with open(os.path.join(ROOT, "Fixtures", "demo-voyage", "imu.csv")) as f:
    imu_trace = "".join(line for _, line in zip(range(3001), f))
card.put("imu.csv", imu_trace)
card.put("route.gpx", open(os.path.join(ROOT, "Fixtures", "demo-voyage", "route.gpx")).read())
configuration = 'route = "/boot/firmware/route.gpx"\n' + configuration
configuration += ('\n[n2k]\nbus = "can://can0"\n\n[imu]\nurl = "csv:///boot/firmware/imu.csv"\nloop = true\n'
                  'axes = "x,y,z"\n')
link = Link(BROKER)
configuration += (f'\n[uplink]\nbroker = "mqtt://10.0.2.2:{link.port}"\nboat = "pi"\nbatch_seconds = 2\n'
                  '[uplink.rates]\nwind = 1\nposition = 1\n')
card.put("telltale.toml", configuration)
with open(os.path.join(work, "mosquitto.conf"), "w") as f:
    f.write(f"listener {BROKER} 127.0.0.1\nallow_anonymous true\npersistence false\n")


def start_broker():
    return subprocess.Popen(["mosquitto", "-c", os.path.join(work, "mosquitto.conf")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def shore_boat():
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{FLEET}/telltale/v1/fleet", timeout=5) as response:
            return next((b for b in json.load(response)["boats"] if b["id"] == "pi"), {})
    except (OSError, ValueError):
        return {}


broker = start_broker()
link.up()
fleet = subprocess.Popen([host_telltale, "fleet", "--broker", f"mqtt://127.0.0.1:{BROKER}", "--listen",
                          f"127.0.0.1:{FLEET}", "--store", os.path.join(work, "fleet.sqlite")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

check.stage("first boot")
# 2. First boot, with no adapter plugged in.
pi = EmulatedPi(card, work, key=key).boot()
output = OutputReader(pi.nmea, reconnect=True)
ready = pi.wait_ready()
check(ready, "the Pi boots and SSH answers with the key from the boot partition", pi.console()[-3000:])
if not ready:
    pi.power_cut()
    check.finish()
# SSH can answer while the gateway is still starting (it is Type=notify): judge it once the boot has settled.
state = pi.out("systemctl is-system-running --wait", timeout=120)
active = pi.ssh("systemctl is-active telltale")[1].strip()
check(active == "active", f"telltale.service runs at boot ({active})", pi.out("systemctl status telltale --no-pager"))
failed = pi.out("systemctl --failed --no-legend --plain")
check(state == "running" and failed == "", f"the boot ends with no unit failed ({state})", failed)
mounts = pi.out("findmnt -no FSTYPE /; findmnt -no OPTIONS /run/telltale-root/lower; findmnt -no OPTIONS /boot/firmware")
check(mounts.split("\n")[0] == "overlay" and "ro" in mounts.split("\n")[1].split(",")
      and "ro" in mounts.split("\n")[2].split(","),
      "the root partition is read-only under a RAM overlay; the boot partition read-only", mounts)
partitions = card.partitions()
data = partitions[2] if len(partitions) > 2 else (0, 0)
check(data[0] == 2048 * MIB and data[0] + data[1] >= 4096 * MIB - 2 * MIB,
      f"the data partition was made at 2 GiB and fills the card ({data[1] // MIB} MiB)", str(partitions))
bound = pi.out("for d in /etc/telltale /var/lib/telltale /var/log/telltale; do findmnt -no SOURCE $d; done")
check(pi.out("findmnt -no FSTYPE /data") == "ext4" and bound.count("[/") == 3,
      "the data partition is mounted, its folders bound over the configuration, state and recordings", bound)
exposure = pi.out("systemd-analyze security telltale.service --no-pager | tail -n 1")
level = re.search(r"level for telltale.service: ([0-9.]+)", exposure)
check(level is not None and float(level.group(1)) <= 2.0, f"systemd-analyze security on the Pi: {exposure}")
served = wait_for(lambda: http(pi, "/signalk", timeout=5)[0] == 200, BOOT_LIMIT - (time.monotonic() - pi.started))
status, body = http(pi, "/signalk")
check(served and "signalk-http" in body,
      f"the gateway serves Signal K through the network {time.monotonic() - pi.started:.0f} s after power-on "
      f"(at most {BOOT_LIMIT} s, emulated)")
status, page = http(pi, "/")
check(status == 200 and "<title>Telltale</title>" in page, "the panel is served on port 3000")
# The offline base map on the card (the image package's /usr/share/telltale/basemap): listed, the Solent's bin served.
status, listing = http(pi, "/charts/")
solent = urllib.request.Request(f"http://127.0.0.1:{pi.web}/charts/.basemap/f/14398")
try:
    with urllib.request.urlopen(solent, timeout=20) as response:
        solent_bytes = response.read()
except OSError as error:
    solent_bytes = str(error).encode()
check(status == 200 and json.loads(listing or "{}").get("baseMap") is True and len(solent_bytes) > 1000
      and int.from_bytes(solent_bytes[:4], "little") == 14398,
      f"the offline base map is on the card: listed, the Solent's full-resolution bin served ({len(solent_bytes)} bytes)",
      listing[:200])
note = pi.out("cat /boot/firmware/telltale-wifi.txt")
passphrase = re.search(r"passphrase:\s+(\S+)", note)
ssid = re.search(r"network:\s+(telltale-[0-9a-f]{4})", note)
check(passphrase is not None and ssid is not None and len(passphrase.group(1)) >= 8,
      "the access point's name and passphrase are written to the boot partition", note)
# Tokens by default: this laptop (10.0.2.2 to the Pi) reads everything but changes nothing until approved on the Pi.
status, body = http(pi, "/telltale/v1/settings")
check(status == 401, f"the settings are refused to a device not approved ({status})", body[:200])
status, body = http(pi, "/signalk/v1/access/requests", "POST", json.dumps(
    {"clientId": "7f1c9a52-3b6e-4d2a-9c41-0e5b8d2f6a13", "description": "image-check laptop",
     "permissions": "admin"}).encode())
request_id = json.loads(body).get("requestId", "") if status == 202 else ""
approve = pi.ssh(f"telltale access approve {request_id[:8]}")
status, body = http(pi, "/signalk/v1/requests/" + request_id)
token = ((json.loads(body) if status == 200 else {}).get("accessRequest") or {}).get("token")
check(request_id and approve[0] == 0 and token,
      "asked for access over the network, approved on the Pi by `telltale access approve`: a token", approve[1] + body)
status, body = http(pi, "/telltale/v1/settings", token=token)
settings = json.loads(body) if status == 200 else {}
check(passphrase is not None and (settings.get("network") or {}).get("passphrase") == passphrase.group(1),
      "the settings page shows the same passphrase", body[:300])
# The accounts whose password field is a hash (or empty): none. SSH's own failure (255: the emulated Pi too busy to
# answer within ConnectTimeout, once in CI) is tried again rather than read as an answer.
shadow = "grep -q . /etc/shadow && awk -F: '$2 !~ /^[!*]/ {print $1}' /etc/shadow"
accounts = pi.ssh(shadow)
if accounts[0] == 255:
    time.sleep(5)
    accounts = pi.ssh(shadow)
check(accounts[0] == 0 and accounts[1].strip() == "", "no account has a password (nor an empty one)",
      f"status {accounts[0]}: {accounts[1]}")

check.stage("a USB adapter plugged in")
# 3. The adapter plugged in after boot, unplugged and plugged again, sentences flowing.
pid = pi.out("systemctl show -p MainPID --value telltale")
pi.plug_usb_serial("adapter", ADAPTER_SERIAL)
feed = SerialFeed(pi.chardevs["adapter"], instruments, rate=10)
opened = wait_for(lambda: computed_true_wind(output.lines()), 60, step=0.5)
check(opened, "an adapter plugged in after boot is opened by its /dev/serial/by-id name; true wind comes out on TCP",
      pi.out("journalctl -u telltale -b --no-pager | tail -n 15"))
# Signal K is updated once a second: the first true wind on TCP may come before it.
wait_for(lambda: http(pi, "/signalk/v1/api/vessels/self/environment/wind/speedTrue")[0] == 200, 10, step=0.5)
status, body = http(pi, "/signalk/v1/api/vessels/self/environment/wind/speedTrue")
check(status == 200 and '"value"' in body, "true wind is in Signal K", body[:200])
# This boat has no GPS and the emulated Pi no synchronized clock: its samples go ashore on the system clock once two
# minutes have passed without a clock it can trust (docs/fleet.md), so the wait reaches past that.
ashore = wait_for(lambda: shore_boat().get("online") and shore_boat().get("environment.wind.speedTrue"), 180, step=1)
check(ashore, "the fleet uplink: the Pi's true wind reaches the laptop's broker (libmosquitto on the image) and "
      "`telltale fleet` shows the boat online", json.dumps(shore_boat())[:300] + pi.out(
          "journalctl -u telltale -b --no-pager | grep uplink | tail -n 5"))
holders = pi.out("for p in /proc/[0-9]*; do ls -l $p/fd 2>/dev/null | grep -q ttyUSB && cat $p/comm; done")
check(holders == "telltale" and pi.out("systemctl is-active gpsd.service") != "active",
      "gpsd has not taken the FTDI adapter: only telltale holds it", holders)
pi.unplug("adapter")
time.sleep(4)
count = len(computed_true_wind(output.lines()))
pi.plug_usb_serial("adapter", ADAPTER_SERIAL)
back = wait_for(lambda: len(computed_true_wind(output.lines())) > count + 10, 60, step=0.5)
restarts = pi.out("systemctl show -p NRestarts --value telltale")
check(back and pi.out("systemctl show -p MainPID --value telltale") == pid and restarts == "0",
      "unplugged and plugged again: the input comes back by itself, the service never restarted",
      pi.out("journalctl -u telltale -b --no-pager | tail -n 10"))

# A GRIB from the laptop, in pieces as the panel sends it: imported on the Pi by its own ecCodes and taken.
grib = os.path.join(work, "solent.grb")
today = time.strftime("%Y%m%d", time.gmtime())
subprocess.run(["/usr/bin/python3", "-c", f"import sys; sys.path.insert(0, {os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Interop')!r}); "
                f"import weather_grib as w; w.grib1_ncep({grib!r}, {today}, 0, range(0, 49, 3), south=50.0, west=-2.0)"],
               check=True)
data = open(grib, "rb").read()
sent = [http(pi, f"/telltale/v1/weather/grib?name=solent.grb&offset={o}&total={len(data)}", "PUT", data[o:o + 16384],
             token=token) for o in range(0, len(data), 16384)]
imported = wait_for(lambda: '"label":"solent.grb (kwbc)"' in http(pi, "/telltale/v1/weather")[1], 60, step=1)
check(sent[-1][0] == 201 and imported, "a GRIB sent from the laptop is imported on the Pi (ecCodes) and on board",
      str(sent[-1]) + pi.out("journalctl -u telltale -b --no-pager | grep weather | tail -n 5"))

# The anchor set from the laptop over Signal K (a position and a circle: no GPS needed), to be kept by the power cut.
ANCHOR = {"latitude": 50.7712345, "longitude": -1.3054321}
anchored = [http(pi, "/signalk/v1/api/vessels/self/navigation/anchor/position", "PUT",
                 json.dumps({"value": ANCHOR}).encode(), token=token),
            http(pi, "/signalk/v1/api/vessels/self/navigation/anchor/maxRadius", "PUT",
                 json.dumps({"value": 55}).encode(), token=token)]
check(all(status == 200 for status, _ in anchored), "the anchor set over Signal K: a position, a circle of 55 m",
      str(anchored))

check.stage("the NMEA 2000 bus")
# 3b. The NMEA 2000 bus: the Pi's can0 and the check's node on can1, two of QEMU's emulated Kvaser cards on one bus,
# so every frame crosses the kernel's kvaser_pci driver. What Telltale sends, read with candump and decoded by PyPI's
# nmea2000; its answers to ISO requests sent with cansend; its address defended and given up by NAME; a recorded bus
# played with canplayer coming out computed on TCP and in Signal K; the interface taken down and brought back.
feed = own_frames(check, feed, output, pi)
SHARED = recorded_bus(ROOT, check, feed, output, pi)
recorded_pilots(ROOT, SHARED, check, pi, token)
pi.ssh("systemctl stop canplayer", timeout=30)
pi.ssh("ip link set can0 down; sleep 3; ip link set can0 up type can bitrate 250000", timeout=30)
reopened = wait_for(lambda: "can://can0 open again" in pi.out("journalctl -u telltale -b --no-pager | grep n2k"),
                    40, step=2)
check(reopened and pi.out("systemctl show -p NRestarts --value telltale") == "0",
      "can0 taken down and brought back: said, reopened, claimed again; the service never restarted",
      pi.out("journalctl -u telltale -b --no-pager | grep n2k | tail -n 6"))
feed = SerialFeed(pi.chardevs["adapter"], instruments_with_fix, rate=10)

check.stage("power cut")
pi = power_cut(ADAPTER_SERIAL, BOOT_LIMIT, broker, card, check, feed, fleet, key, link, pi, shore_boat, token, work)
check.stage("a new image and an update")
pi = new_image(ROOT, card, check, image, imu_trace, key, package, pi, public, work)
check.stage("the boot partition late and broken")
output, pi = boot_partition_late_and_broken(ADAPTER_SERIAL, card, check, key, pi, work)
check.stage("the Raspberry Pi 3 board")
raspberry_pi_3(card, check, key, output, pi, work)
check.finish()
