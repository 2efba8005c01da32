"""Fleet uplink figures (a benchmark, not a test: it prints figures and asserts nothing). Needs root (a network
namespace, a loop device) and Debian's mosquitto; paho-mqtt for the fleet's load (the interop venv has it).

    python3 Benchmarks/uplink_bench.py X86_BINARY [SECONDS] [ARM64_BINARY SYSROOT]

1. Bytes per boat per hour on the wire: the gateway on the demo voyage in real time, its broker in a network
   namespace of its own behind a veth pair, the bytes both ways on the boat's end of the pair (MQTT, TCP and IP
   headers, keep-alives and acknowledgements: what a 4G plan counts) over SECONDS [300], scaled to an hour; at the
   default rates, then with every group once a second (a race committee's setting).
2. The queue's writes (SD card wear): the state folder on an ext4 file system of its own on a loop device, the
   sectors the kernel wrote to it over the same run (data, journal, metadata of every synced append and of the
   acknowledgement mark), scaled to an hour; beside it the bytes the queue itself wrote (the gateway's summary).
3. The uplink's memory: `telltale run` on the bench profile with and without `[uplink]` (to a broker on loopback)
   after 30 s: VmRSS and RssAnon, x86 static build, and arm64 under qemu-aarch64 when given (qemu's own memory
   included in both readings; the difference is the uplink's: libmosquitto, libssl and libcrypto mapped, the queue).
4. How many boats one `telltale fleet` follows at 1 Hz: boats simulated by paho-mqtt publishers (each second a
   boat's position and wind group values, every 10 s a history batch of their samples, QoS 1 as a gateway sends),
   the fleet's CPU from /proc/PID/stat over 20 s at 50, 100, 200 and 400 boats, with no panel open and then with one
   reading the Fleet layout's JSON every 2 s.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
from support import Gateway, free_port, memory_kb, stop, wait_for  # noqa: E402

binary = os.path.abspath(sys.argv[1])
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 300
arm = sys.argv[3:5] if len(sys.argv) >= 5 else None
work = tempfile.mkdtemp()
SHORE, BOAT_IF, SHORE_IF = "tt-bench-shore", "tt-bench0", "tt-bench1"
VOYAGE = os.path.join(ROOT, "Fixtures", "demo-voyage")


def run(*command, check=True):
    return subprocess.run(command, check=check, capture_output=True, text=True)


def ticks(pid):
    """utime + stime of a process, in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


HZ = os.sysconf("SC_CLK_TCK")


def config(broker, state, rates, web_port=None, nmea_port=None):
    text = f"""status_line = false
state_file = "{state}/state.toml"
route = "{VOYAGE}/route.gpx"
[[input]]
name = "voyage"
url = "file:{VOYAGE}/voyage.nmea"
loop = true
"""
    if nmea_port:
        text += f'[[output]]\nurl = "tcp://127.0.0.1:{nmea_port}"\n'
    if web_port:
        text += f'[web]\nlisten = "127.0.0.1:{web_port}"\n'
    if broker:
        text += f'[uplink]\nbroker = "{broker}"\nboat = "bench"\n'
        if rates:
            text += "[uplink.rates]\n" + "".join(f"{group} = 1\n" for group in
                                                 ["position", "wind", "attitude", "depth", "weather", "race", "ais"])
    return text


# ---- 1 and 2: bytes on the wire, sectors on the card ---------------------------------------------------------------
def teardown():
    run("ip", "netns", "delete", SHORE, check=False)
    run("ip", "link", "delete", BOAT_IF, check=False)


def wire_and_wear(all_groups):
    teardown()
    run("ip", "netns", "add", SHORE)
    run("ip", "link", "add", BOAT_IF, "type", "veth", "peer", "name", SHORE_IF)
    run("ip", "link", "set", SHORE_IF, "netns", SHORE)
    run("ip", "addr", "add", "10.78.0.1/24", "dev", BOAT_IF)
    run("ip", "link", "set", BOAT_IF, "up")
    run("ip", "netns", "exec", SHORE, "ip", "addr", "add", "10.78.0.2/24", "dev", SHORE_IF)
    run("ip", "netns", "exec", SHORE, "ip", "link", "set", SHORE_IF, "up")
    conf = os.path.join(work, "shore.conf")
    with open(conf, "w") as f:
        f.write("listener 1883 0.0.0.0\nallow_anonymous true\npersistence false\n")
    broker = subprocess.Popen(["ip", "netns", "exec", SHORE, "mosquitto", "-c", conf],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # The state folder on ext4 of its own, as the Pi's data partition is.
    disk = os.path.join(work, "state.ext4")
    with open(disk, "wb") as f:
        f.truncate(64 << 20)
    run("mkfs.ext4", "-q", "-F", disk)
    mount = os.path.join(work, "state-mount")
    os.makedirs(mount, exist_ok=True)
    loop = run("losetup", "--find", "--show", disk).stdout.strip()
    run("mount", "-o", "noatime", loop, mount)
    sectors_file = f"/sys/block/{os.path.basename(loop)}/stat"
    time.sleep(0.5)
    gateway = Gateway(binary, config("mqtt://10.78.0.2:1883", mount, all_groups, web_port=free_port()),
                      work=tempfile.mkdtemp()).start()
    # From the first connection: the start (subscriptions, the retained values' first round) is in the hour's count.
    wait_for(lambda: "uplink: connected" in gateway.log(), 20)
    stats = f"/sys/class/net/{BOAT_IF}/statistics/"

    def wire():
        return sum(int(open(stats + name).read()) for name in ("tx_bytes", "rx_bytes"))

    def written():
        return int(open(sectors_file).read().split()[6]) * 512

    wire0, disk0, start = wire(), written(), time.monotonic()
    time.sleep(seconds)
    wire1, disk1, elapsed = wire(), written(), time.monotonic() - start
    gateway.stop()
    summary = next((line for line in gateway.log().splitlines() if "uplink.summary" in line), "")
    queue = re.search(r"(\d+) KB written to it", summary)
    published = re.search(r"(\d+) messages published \((\d+) KB\)", summary)
    stop(broker)
    run("umount", mount)
    run("losetup", "-d", loop)
    teardown()
    hour = 3600 / elapsed
    label = "every group at 1 s" if all_groups else "the default rates"
    print(f"uplink at {label}, {elapsed:.0f} s of the demo voyage in real time, scaled to an hour:")
    print(f"  on the wire (both ways, TCP/IP included): {(wire1 - wire0) * hour / 1e6:.2f} MB/hour "
          f"({(wire1 - wire0) / elapsed:.0f} B/s)")
    if published:
        print(f"  MQTT payloads and topics: {int(published.group(2)) * 1024 * hour * (elapsed / (elapsed + 1)) / 1e6:.2f}"
              f" MB/hour ({int(published.group(1)) * hour:.0f} messages an hour)")
    print(f"  written to the state file system (ext4 on a loop device: data, journal, metadata): "
          f"{(disk1 - disk0) * hour / 1e6:.1f} MB/hour")
    if queue:
        print(f"  of which the queue's own records: {int(queue.group(1)) * 1024 * hour / 1e6:.2f} MB/hour")


# ---- 3: memory -----------------------------------------------------------------------------------------------------
def memory(runner, label):
    port = free_port()
    conf = os.path.join(work, "loop.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    broker = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    readings = {}
    for name, url in (("without [uplink]", None), ("with [uplink]", f"mqtt://127.0.0.1:{port}")):
        state = tempfile.mkdtemp()
        gateway = Gateway(runner[-1], config(url, state, False, web_port=free_port(), nmea_port=free_port()),
                          work=state, runner=runner[:-1]).start()
        time.sleep(30)
        pid = gateway.process.pid
        readings[name] = (memory_kb(pid, "VmRSS"), memory_kb(pid, "RssAnon"), memory_kb(pid, "RssFile"))
        connected = "uplink: connected" in gateway.log()
        gateway.stop()
        print(f"  {label}, bench profile {name}: VmRSS {readings[name][0] / 1024:.2f} MB (anonymous "
              f"{readings[name][1] / 1024:.2f} MB, file-backed {readings[name][2] / 1024:.2f} MB)"
              + ("" if url is None else f", connected: {connected}"))
    stop(broker)
    a, b = readings["without [uplink]"], readings["with [uplink]"]
    print(f"  {label}: the uplink adds {(b[0] - a[0]) / 1024:+.2f} MB resident ({(b[1] - a[1]) / 1024:+.2f} MB "
          f"anonymous, {(b[2] - a[2]) / 1024:+.2f} MB file-backed)")


# ---- 4: the fleet's capacity --------------------------------------------------------------------------------------
PUBLISHER = r"""
import json, sys, time
import paho.mqtt.client as mqtt
port, first, count = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"boats-{first}")
client.max_inflight_messages_set(10000)
client.max_queued_messages_set(0)
client.connect("127.0.0.1", port, 60)
client.loop_start()
def stamp(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".000Z"
paths = [("navigation.speedOverGround", 3.4), ("navigation.courseOverGroundTrue", 1.2),
         ("navigation.headingTrue", 1.25), ("navigation.speedThroughWater", 3.3),
         ("environment.wind.speedTrue", 7.1), ("environment.wind.directionTrue", 4.0),
         ("environment.wind.angleApparent", 0.6), ("environment.wind.speedApparent", 9.2),
         ("navigation.attitude", None)]
batches = {b: [] for b in range(first, first + count)}
seq = {b: 0 for b in batches}
tick = time.time()
while True:
    now = time.time()
    for b in batches:
        lat, lon = 50.7 + b * 0.001 + (now % 3600) * 1e-6, -1.3 + b * 0.0005
        position = {"value": {"latitude": lat, "longitude": lon}, "timestamp": stamp(now), "$source": "gps.GP"}
        client.publish(f"telltale/b{b}/navigation/position", json.dumps(position), qos=1, retain=True)
        batches[b].append({"path": "navigation.position", **position})
        for path, value in paths:
            v = {"roll": 0.1, "pitch": 0.02, "yaw": None} if value is None else value
            sample = {"value": v, "timestamp": stamp(now), "$source": "telltale.computed"}
            client.publish(f"telltale/b{b}/" + path.replace(".", "/"), json.dumps(sample), qos=1, retain=True)
            batches[b].append({"path": path, **sample})
        if len(batches[b]) >= 100:
            seq[b] += 1
            batch = {"boat": f"b{b}", "seq": seq[b], "late": False, "count": len(batches[b]), "thinned": 0,
                     "alarms": 0, "samples": batches[b]}
            client.publish(f"telltale/b{b}/history", json.dumps(batch), qos=1)
            batches[b] = []
    tick += 1
    time.sleep(max(0, tick - time.time()))
"""


def fleet_capacity(venv_python):
    port, web = free_port(), free_port()
    conf = os.path.join(work, "fleet.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_inflight_messages 0\n"
                "max_queued_messages 100000\n")
    broker = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    code = os.path.join(work, "boats.py")
    with open(code, "w") as f:
        f.write(PUBLISHER)
    fleet = subprocess.Popen([binary, "fleet", "--broker", f"mqtt://127.0.0.1:{port}", "--listen", f"127.0.0.1:{web}",
                              "--store", os.path.join(work, "fleet.sqlite")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    publishers = []
    boats = 0
    print("telltale fleet following boats at 1 Hz (10 values a boat a second, a history batch of 100 samples every 10 "
          "s, QoS 1), CPU of the fleet process over 20 s:")
    for target in (50, 100, 200, 400):
        # One publisher process per 100 boats (Python's own limit), started as the count grows.
        while boats < target:
            n = min(100, target - boats)
            publishers.append(subprocess.Popen([venv_python, code, str(port), str(boats), str(n)],
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            boats += n
        time.sleep(12)
        for reading in ("no panel", "a panel"):
            if reading == "a panel":
                import threading
                stop_panel = threading.Event()

                def panel():
                    import urllib.request
                    while not stop_panel.is_set():
                        try:
                            urllib.request.urlopen(f"http://127.0.0.1:{web}/telltale/v1/fleet", timeout=5).read()
                        except OSError:
                            pass
                        stop_panel.wait(2)
                thread = threading.Thread(target=panel, daemon=True)
                thread.start()
                time.sleep(3)
            t0, c0 = time.monotonic(), ticks(fleet.pid)
            time.sleep(20)
            t1, c1 = time.monotonic(), ticks(fleet.pid)
            share = (c1 - c0) / HZ / (t1 - t0) * 100
            try:
                import urllib.request
                data = json.load(urllib.request.urlopen(f"http://127.0.0.1:{web}/telltale/v1/fleet", timeout=5))
                seen = len(data["boats"])
                size = len(json.dumps(data))
            except (OSError, ValueError):
                seen, size = 0, 0
            print(f"  {target} boats, {reading}: {share:.1f}% of a core ({share / target:.3f}% a boat); "
                  f"{seen} boats in the fleet's JSON ({size / 1024:.0f} KB), VmRSS {memory_kb(fleet.pid) / 1024:.1f} MB")
            if reading == "a panel":
                stop_panel.set()
    for p in publishers:
        stop(p)
    stop(fleet)
    stop(broker)


if os.geteuid() == 0:
    wire_and_wear(False)
    wire_and_wear(True)
else:
    print("bytes on the wire and the queue's writes: needs root (a network namespace, a loop device)")
print("the uplink's memory, after 30 s:")
memory([binary], "x86")
if arm:
    qemu = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "-E",
            f"LD_LIBRARY_PATH={arm[1]}/usr/lib/aarch64-linux-gnu:{arm[1]}/lib/aarch64-linux-gnu"]
    memory(qemu + [os.path.abspath(arm[0])], "arm64 under qemu-aarch64")
venv = os.path.join(ROOT, ".build-interop", "venv", "bin", "python")
if os.path.exists(venv) and subprocess.run([venv, "-c", "import paho.mqtt.client"]).returncode == 0:
    fleet_capacity(venv)
else:
    print("the fleet's capacity: needs paho-mqtt in .build-interop/venv (Tests/Interop/uplink-check.sh installs it)")
shutil.rmtree(work, ignore_errors=True)
