"""The fleet uplink against Mosquitto, with the link cut, the gateway killed, and a fleet ashore.

    uplink_check.py BINARY

1. A shore in a network namespace of its own (Debian's mosquitto, and a subscriber written with Python's paho-mqtt
   from PyPI, both inside it) joined to the boat by a veth pair. The gateway replays 32 minutes of the demo voyage at
   20x, sending every group each second in batches of 2 s, its queue on disk small (50 KB) so a long cut thins it.
   The link is cut three times (the veth brought down: 12 s, 40 s and 10 s) and the gateway killed with SIGKILL once
   and started again. Then: every batch the gateway made arrives (their numbers run 1..N with no gap), each exactly
   once once its number is kept (any repeat is the same batch sent again), each with all its samples but the ones it
   says the queue thinned, every alarm in it (never thinned), in order; each value's topic in order; batches from the
   cuts arrive marked late; the long cut thinned some.
2. A new paho-mqtt client reads the retained topics without any Telltale code: the position as JSON with the
   sample's own ISO 8601 time and its source, the online flag (false after a clean stop).
3. Commands from shore: a signed `race start` is carried out and its result published; a payload of 100 KB, broken
   JSON, an unsigned command, a replayed one and a flood of 2,000 are refused (said in the log), and the gateway's
   output goes on.
4. `telltale fleet` ashore with five gateways on five voyages offset from one another: the panel's Fleet layout in
   Debian's chromium shows five boats, each where its own gateway says it is.
5. A broker slow to answer (an attempt that hangs until its keep-alive), then refusing after an attempt began, then
   there: the boat is online within 20 s of the broker's start.
Prints ok/FAIL per check and `uplink-check: N passed, M failed`.
"""
import hashlib
import hmac
import json
import urllib.request
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from support import ROOT, Checks, Gateway, free_port, OutputReader, stop, wait_for, demo_input  # noqa: E402

binary = os.path.abspath(sys.argv[1])
python = sys.executable
work = tempfile.mkdtemp()
check = Checks("uplink-check")
SHORE = "tt-shore"
BOAT_IF, SHORE_IF = "tt-boat0", "tt-shore0"
BOAT_IP, SHORE_IP = "10.77.0.1", "10.77.0.2"
KEY = "the boat and the shore share this key"


def run(*command, check_status=True):
    return subprocess.run(command, check=check_status, capture_output=True, text=True)


def teardown():
    run("ip", "netns", "delete", SHORE, check_status=False)
    run("ip", "link", "delete", BOAT_IF, check_status=False)


teardown()
try:
    run("ip", "netns", "add", SHORE)
    run("ip", "link", "add", BOAT_IF, "type", "veth", "peer", "name", SHORE_IF)
    run("ip", "link", "set", SHORE_IF, "netns", SHORE)
    run("ip", "addr", "add", BOAT_IP + "/24", "dev", BOAT_IF)
    run("ip", "link", "set", BOAT_IF, "up")
    run("ip", "netns", "exec", SHORE, "ip", "addr", "add", SHORE_IP + "/24", "dev", SHORE_IF)
    run("ip", "netns", "exec", SHORE, "ip", "link", "set", SHORE_IF, "up")
    run("ip", "netns", "exec", SHORE, "ip", "link", "set", "lo", "up")
    check(True, "a shore in its own network namespace, joined to the boat by a veth pair")
except subprocess.CalledProcessError as error:
    check(False, "a shore in its own network namespace (needs root and iproute2)", error.stderr)
    check.finish()

procs = []


def cleanup():
    for p in procs:
        if p.poll() is None:
            stop(p)
    teardown()


import atexit  # noqa: E402
atexit.register(cleanup)

conf = os.path.join(work, "mosquitto.conf")
with open(conf, "w") as f:
    f.write("listener 1883 0.0.0.0\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n")
broker = subprocess.Popen(["ip", "netns", "exec", SHORE, "mosquitto", "-c", conf],
                          stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "mosquitto.log"), "w"))
procs.append(broker)
time.sleep(0.5)

# The subscriber ashore: every message, with when it came, one JSON line each.
received = os.path.join(work, "received.jsonl")
subscriber_code = os.path.join(work, "subscriber.py")
with open(subscriber_code, "w") as f:
    f.write(f"""import json, sys, time
import paho.mqtt.client as mqtt
out = open({received!r}, "a", buffering=1)
def on_message(client, userdata, message):
    out.write(json.dumps({{"topic": message.topic, "payload": message.payload.decode("utf-8", "replace"),
                          "retain": bool(message.retain), "at": time.time()}}) + "\\n")
def on_connect(client, userdata, flags, reason, properties):
    client.subscribe("telltale/#", qos=1)
client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="shore-subscriber", clean_session=False)
client.on_message = on_message
client.on_connect = on_connect
client.connect("127.0.0.1", 1883, 30)
client.loop_forever()
""")
subscriber = subprocess.Popen(["ip", "netns", "exec", SHORE, python, subscriber_code], stderr=subprocess.PIPE)
procs.append(subscriber)
time.sleep(1)

state = os.path.join(work, "state")
os.makedirs(state)
nmea = free_port()
config = f"""status_line = false
state_file = "{state}/state.toml"
route = "{ROOT}/Fixtures/demo-voyage/route.gpx"
{demo_input('voyage', speed=20)}[[output]]
url = "tcp://127.0.0.1:{nmea}"
kinds = ["true-wind"]
pass_through = false
[alarms]
xte = 0.02
shallow = 9.3
[uplink]
broker = "mqtt://{SHORE_IP}:1883"
boat = "arrow"
batch_seconds = 2
queue_mb = 0.05
keep_alive = 5
backlog_rate = 50
commands = true
command_key = "{KEY}"
[uplink.rates]
position = 1
wind = 1
attitude = 1
depth = 1
race = 1
"""
gateway = Gateway(binary, config, work=work)
gateway.start(wait=[nmea])
output = OutputReader(nmea, reconnect=True)
start = time.monotonic()


def at(seconds):
    while time.monotonic() - start < seconds:
        time.sleep(0.1)


def link(up):
    run("ip", "link", "set", BOAT_IF, "up" if up else "down")


at(8)
link(False)
at(20)
link(True)
at(26)
link(False)
at(66)
link(True)
at(74)
os.kill(gateway.process.pid, signal.SIGKILL)
gateway.process.wait()
killed_at = time.time()
time.sleep(1)
gateway.start(wait=[nmea])
at(84)
link(False)
at(94)
link(True)
# The backlog after the last cut, sent at backlog_rate beside the live values.
at(112)

# ---- 3. Commands from shore, and bad input from the broker's side -------------------------------------------------
publisher_code = os.path.join(work, "publisher.py")
now = int(time.time())


def signed(command, nonce, when=None):
    when = now if when is None else when
    text = f"arrow\n{command}\n{when}\n{nonce}".encode()
    return json.dumps({"command": command, "time": when, "nonce": nonce,
                       "hmac": hmac.new(KEY.encode(), text, hashlib.sha256).hexdigest()})


messages = [("x" * 100_000), "{not json", json.dumps({"command": "race start", "time": now, "nonce": "unsigned1"}),
            signed("race start", "good-nonce-1"), signed("race start", "good-nonce-1"), signed("route stop", "nonce-rt")]
with open(publisher_code, "w") as f:
    f.write(f"""import json, time
import paho.mqtt.client as mqtt
client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="shore-publisher")
client.connect("127.0.0.1", 1883, 30)
client.loop_start()
for payload in {messages!r}:
    client.publish("telltale/arrow/commands", payload, qos=1).wait_for_publish(5)
    time.sleep(0.3)
for i in range(2000):
    client.publish("telltale/arrow/commands", "flood %d" % i, qos=0)
time.sleep(2)
client.loop_stop()
client.disconnect()
""")
before = len(output)
pub = subprocess.run(["ip", "netns", "exec", SHORE, python, publisher_code], capture_output=True, text=True, timeout=60)
time.sleep(3)
log = gateway.log()
check(pub.returncode == 0, "a publisher ashore sent the commands and the flood", pub.stderr[-300:])
check("uplink: from shore: race timer started" in log, "a signed 'race start' from shore is carried out",
      log[-500:])
refusals = [line for line in log.splitlines() if "a command from shore refused" in line or "dropped unread" in line]
said = " ".join(refusals)
check("dropped unread" in said and "not a JSON command" in said and "no hmac" in said and "a replay" in said
      and "route stop" in said,
      f"100 KB dropped unread; broken JSON, an unsigned command, a replay and a command not taken from shore refused "
      f"and said "
      f"({len(refusals)} lines, the flood's held back by the log's limiter)", said[:400])
check(gateway.alive() and len(output) > before, "the gateway lives on, its output flowing through the flood")

# ---- Stop cleanly: online false --------------------------------------------------------------------------------
gateway.stop()
time.sleep(2)
stop(subscriber)
lines = [json.loads(line) for line in open(received)]
history = [(m, json.loads(m["payload"])) for m in lines if m["topic"] == "telltale/arrow/history"]
results = [m for m in lines if m["topic"] == "telltale/arrow/commands/result"]
check(any('"done":true' in m["payload"] for m in results), "the command's result published on commands/result",
      str(results[:2]))

# ---- 1. Every batch, exactly once, whole ------------------------------------------------------------------------
unique = {}
order = []
duplicates = 0
consistent = True
after_restart = set()
for message, batch in history:
    seq = batch["seq"]
    if message["at"] > killed_at:
        after_restart.add(seq)
    if seq in unique:
        duplicates += 1
        # A repeat is the batch sent again (perhaps thinned since): the same count, its samples among the first's or
        # the first's among its.
        first = unique[seq]
        a = {(x["path"], x["timestamp"]) for x in first["samples"]}
        b = {(x["path"], x["timestamp"]) for x in batch["samples"]}
        consistent = consistent and first["count"] == batch["count"] and (a <= b or b <= a)
        continue
    unique[seq] = batch
    order.append(seq)
numbers = sorted(unique)
check(numbers and numbers[0] == 1 and numbers == list(range(1, numbers[-1] + 1)),
      f"every batch made arrived: numbers 1..{numbers[-1] if numbers else 0}, no gap "
      f"({duplicates} sent again and kept once)", str([n for n in range(1, (numbers or [0])[-1]) if n not in unique][:10]))
check(consistent, "each batch sent again is the same batch (its count, its samples)")
before_kill = [n for n in numbers if n not in after_restart]
check(len(numbers) >= 45 and any(n > max(before_kill or [0]) for n in after_restart),
      f"after SIGKILL and a restart the numbers go on from before it ({len(numbers)} batches in about 110 s)")
check(order == sorted(order), "in order: the batches' numbers rise as they arrive (repeats aside)")
whole = all(len(b["samples"]) == b["count"] - b["thinned"] for b in unique.values())
samples = sum(len(b["samples"]) for b in unique.values())
thinned = sum(b["thinned"] for b in unique.values())
made = sum(b["count"] for b in unique.values())
check(whole and samples + thinned == made,
      f"every sample arrived or is counted as thinned: {samples} arrived + {thinned} thinned = {made} taken")
alarms_kept = all(sum(1 for s in b["samples"] if s["path"].startswith("notifications.")) == b["alarms"]
                  for b in unique.values())
alarm_count = sum(b["alarms"] for b in unique.values())
check(alarms_kept and alarm_count > 0, f"every alarm arrived, none thinned ({alarm_count} alarm samples)")
late = [b for b in unique.values() if b["late"]]
check(len(late) >= 3, f"the batches made while the link was down arrive marked late ({len(late)})")
check(thinned > 0, f"the 40 s cut filled the 50 KB queue: its oldest samples thinned ({thinned}), alarms kept")
timestamps_ok = all(all(isinstance(s["timestamp"], str) and s["timestamp"].endswith("Z") for s in b["samples"])
                    for b in unique.values())
check(timestamps_ok, "each sample with its own time (RFC 3339 UTC)")

# Order per topic: each value's topic carries its samples' times rising (within each run of the gateway: the voyage
# plays from its start again after the restart).
skip = ("history", "online", "alarms", "commands", "commands/result")
out_of_order = []
for part in ([m for m in lines if m["at"] < killed_at], [m for m in lines if m["at"] >= killed_at]):
    last = {}
    for m in part:
        topic = m["topic"].split("/", 2)[2]
        if topic in skip or m["retain"]:
            continue
        stamp = json.loads(m["payload"]).get("timestamp", "")
        if stamp < last.get(topic, ""):
            out_of_order.append((topic, last[topic], stamp))
        last[topic] = stamp
live = sum(1 for m in lines if not m["retain"] and m["topic"].split("/", 2)[2] not in skip)
check(live > 500 and not out_of_order, f"order kept per topic: {live} live values, none older than the one before",
      str(out_of_order[:3]))

# ---- 2. The retained topics, read by a client that knows nothing of Telltale ----------------------------------------
reader_code = os.path.join(work, "reader.py")
with open(reader_code, "w") as f:
    f.write("""import json, time
import paho.mqtt.client as mqtt
got = {}
def on_message(client, userdata, message):
    if message.retain:
        got[message.topic] = message.payload.decode()
def on_connect(client, userdata, flags, reason, properties):
    client.subscribe("telltale/arrow/#", qos=1)
client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="reader", clean_session=True)
client.on_message = on_message
client.on_connect = on_connect
client.connect("127.0.0.1", 1883, 30)
client.loop_start()
time.sleep(3)
client.loop_stop()
print(json.dumps(got))
""")
reader = subprocess.run(["ip", "netns", "exec", SHORE, python, reader_code], capture_output=True, text=True, timeout=30)
retained = json.loads(reader.stdout or "{}")
position = json.loads(retained.get("telltale/arrow/navigation/position", "{}"))
value = position.get("value") or {}
stamp = position.get("timestamp", "")
iso = False
try:
    time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S")
    iso = stamp.endswith("Z")
except ValueError:
    pass
check(isinstance(value.get("latitude"), float) and isinstance(value.get("longitude"), float) and iso
      and position.get("$source", "").startswith("voyage."),
      f"paho-mqtt reads the retained position: {value}, {stamp}, {position.get('$source')}",
      str(retained)[:300])
check(retained.get("telltale/arrow/online") == "false", "the online flag says false after a clean stop",
      retained.get("telltale/arrow/online"))
wind = json.loads(retained.get("telltale/arrow/environment/wind/speedTrue", "{}"))
check(isinstance(wind.get("value"), float) and wind.get("$source") == "telltale.computed",
      "and the true wind, computed, in m/s", str(wind))
broker.terminate()
cleanup()

# ---- 5. A broker slow to answer, then refusing, then there ------------------------------------------------------
# The port's accept queue is full (a shore host too busy to answer): the boat's SYN goes unanswered and the attempt
# hangs, with its CONNECT waiting in libmosquitto's queue, until the keep-alive (5 s) ends it. Then the port closes:
# the SYNs sent again are answered with a reset after the attempt began (as a refusal comes over a real network, not
# at once as on loopback). Then the broker starts. Each failed attempt must count once in the backoff (a failed
# attempt's waiting CONNECT once made every turn of the loop count as a failure, and the boat never tried again).
late_port, late_nmea = free_port(), free_port()
busy = socket.socket()
busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
busy.bind(("127.0.0.1", late_port))
busy.listen(0)
fillers = []
for _ in range(3):
    filler = socket.socket()
    filler.setblocking(False)
    filler.connect_ex(("127.0.0.1", late_port))
    fillers.append(filler)
late_folder = os.path.join(work, "late")
os.makedirs(os.path.join(late_folder, "state"))
late = Gateway(binary, f"""status_line = false
state_file = "{late_folder}/state/state.toml"
{demo_input('voyage', speed=5)}[[output]]
url = "tcp://127.0.0.1:{late_nmea}"
kinds = ["true-wind"]
[uplink]
broker = "mqtt://127.0.0.1:{late_port}"
boat = "late"
keep_alive = 5
batch_seconds = 2
""", work=late_folder).start(wait=[late_nmea])
time.sleep(9)
hung = [line for line in late.log().splitlines() if "cannot reach the broker" in line]
busy.close()
for filler in fillers:
    filler.close()
time.sleep(5)
late_conf = os.path.join(work, "late-mosquitto.conf")
with open(late_conf, "w") as f:
    f.write(f"listener {late_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
late_broker = subprocess.Popen(["mosquitto", "-c", late_conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
procs.append(late_broker)
started = time.monotonic()
back = wait_for(lambda: "uplink: connected" in late.log(), 40, step=0.5)
took = time.monotonic() - started
late.stop()
stop(late_broker)
check(hung, "an attempt left unanswered is ended by its keep-alive and said", late.log()[-600:])
check(back and took < 20, f"refused after it began, then the broker there: the boat connected {took:.1f} s after the "
      "broker started (at most 20)", "\n".join(l for l in late.log().splitlines() if "uplink" in l)[-800:])

# ---- 4. The fleet ashore: five boats ----------------------------------------------------------------------------
from browser import chromium  # noqa: E402

port = free_port()
conf = os.path.join(work, "fleet-mosquitto.conf")
with open(conf, "w") as f:
    f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
broker = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
procs.append(broker)
route = open(os.path.join(ROOT, "Fixtures", "demo-voyage", "route.gpx")).read()
gateways = []
for k in range(5):
    folder = os.path.join(work, f"boat{k}")
    os.makedirs(os.path.join(folder, "state"))
    shifted = route
    import re  # noqa: E402
    shifted = re.sub(r'lat="([-0-9.]+)"', lambda m: f'lat="{float(m.group(1)) + 0.01 * k:.6f}"', shifted)
    with open(os.path.join(folder, "route.gpx"), "w") as f:
        f.write(shifted)
    subprocess.run([binary, "simulate", "--route", os.path.join(folder, "route.gpx"), "--output", folder,
                    "--seed", str(k + 2)], check=True, capture_output=True)
    g = Gateway(binary, f"""status_line = false
state_file = "{folder}/state/state.toml"
[[input]]
name = "log"
url = "file:{folder}/voyage.nmea"
speed = 5
[uplink]
broker = "mqtt://127.0.0.1:{port}"
boat = "boat{k}"
send = ["position", "wind", "alarms"]
[uplink.rates]
position = 1
wind = 1
""", work=folder).start()
    gateways.append(g)
web = free_port()
fleet = subprocess.Popen([binary, "fleet", "--broker", f"mqtt://127.0.0.1:{port}", "--listen", f"127.0.0.1:{web}",
                          "--store", os.path.join(work, "fleet.sqlite")],
                         stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "fleet.log"), "w"))
procs.append(fleet)
driver = chromium(1024, 900)
try:
    driver.get(f"http://127.0.0.1:{web}/")

    def markers():
        return driver.execute_script("""return [...document.querySelectorAll('.fleet-icon svg')].map(s => ({
            boat: s.dataset.boat, lat: Number(s.dataset.lat), lon: Number(s.dataset.lon)}))""")

    five = wait_for(lambda: len(markers()) == 5, 30, step=0.5)
    check(five, f"the Fleet layout shows five boats ({len(markers())})",
          driver.find_element("id", "layout-name").text)
    # Each boat where its own gateway says it is: its position as the broker keeps it, read at the same moment.
    reader = subprocess.run([python, "-c", f"""import json, time
import paho.mqtt.client as mqtt
got = {{}}
def on_message(c, u, m):
    got[m.topic.split('/')[1]] = json.loads(m.payload)['value']
def on_connect(c, u, f, r, p):
    c.subscribe('telltale/+/navigation/position', qos=1)
client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id='check', clean_session=True)
client.on_message = on_message
client.on_connect = on_connect
client.connect('127.0.0.1', {port}, 30)
client.loop_start()
time.sleep(1.5)
print(json.dumps(got))
"""], capture_output=True, text=True, timeout=30)
    reported = json.loads(reader.stdout or "{}")
    time.sleep(2.5)
    shown = {m["boat"]: m for m in markers()}
    # Five knots at 5x is about 13 m/s: within the 4 s between the two readings, 60 m (0.0006 degrees) at most.
    near = [b for b, p in reported.items() if b in shown and abs(shown[b]["lat"] - p["latitude"]) < 0.001
            and abs(shown[b]["lon"] - p["longitude"]) < 0.0015]
    check(len(near) == 5, f"each at the position its own gateway reports ({len(near)} of 5 within 100 m)",
          json.dumps({"shown": shown, "reported": reported})[:500])
    inside = driver.execute_script("""const box = document.querySelector('.fleet-icon').closest('.leaflet-container')
        .getBoundingClientRect();
        return [...document.querySelectorAll('.fleet-icon')].filter(m => { const r = m.getBoundingClientRect();
            return r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom; }).length""")
    check(inside == 5, f"the map fitted to the whole fleet as boats joined: {inside} of 5 in view")
    rows = driver.execute_script("return [...document.querySelectorAll('.fleet-table tbody tr')].map(r => r.dataset.boat)")
    check(sorted(rows) == [f"boat{k}" for k in range(5)], "the table lists the five boats with their age", str(rows))
    os.makedirs(os.path.join(ROOT, ".build", "uplink-screenshots"), exist_ok=True)
    driver.save_screenshot(os.path.join(ROOT, ".build", "uplink-screenshots", "fleet.png"))
finally:
    driver.quit()
    for g in gateways:
        g.stop()
# ---- 6. A fleet that keeps its session (#43) ---------------------------------------------------------------------
# Two fleets follow one boat, one with --session (the broker keeps its subscription and the boat's QoS 1 batches
# while it is stopped), one without. Both are killed with SIGKILL while the boat goes on sending, then started again:
# the one with a session gets every batch sent while it was down, none missing; the one without never sees them.
keep_port = free_port()
keep_conf = os.path.join(work, "keep-mosquitto.conf")
with open(keep_conf, "w") as f:
    f.write(f"listener {keep_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
keep_broker = subprocess.Popen(["mosquitto", "-c", keep_conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
procs.append(keep_broker)
time.sleep(0.5)
keep_folder = os.path.join(work, "keep")
os.makedirs(os.path.join(keep_folder, "state"))


def follower(session, web_port):
    words = [binary, "fleet", "--broker", f"mqtt://127.0.0.1:{keep_port}", "--listen", f"127.0.0.1:{web_port}",
             "--store", os.path.join(work, f"fleet-{session or 'clean'}.sqlite")]
    process = subprocess.Popen(words + (["--session", session] if session else []), stdout=subprocess.DEVNULL,
                               stderr=open(os.path.join(work, f"fleet-{session or 'clean'}.log"), "a"))
    procs.append(process)
    return process


def batches(web_port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/telltale/v1/fleet", timeout=3) as response:
            boats = json.loads(response.read()).get("boats", [])
    except (OSError, ValueError):
        return {}
    return next((b for b in boats if b.get("id") == "keeper"), {})


kept_web, clean_web = free_port(), free_port()
kept, clean = follower("committee", kept_web), follower(None, clean_web)
time.sleep(1)
keeper = Gateway(binary, f"""status_line = false
state_file = "{keep_folder}/state/state.toml"
{demo_input('voyage', loop=True, speed=5)}[uplink]
broker = "mqtt://127.0.0.1:{keep_port}"
boat = "keeper"
batch_seconds = 1
[uplink.rates]
position = 1
wind = 1
""", work=keep_folder).start()
wait_for(lambda: (batches(kept_web).get("lastBatch") or 0) >= 3 and (batches(clean_web).get("lastBatch") or 0) >= 3,
         30, step=0.5)
before = batches(kept_web).get("lastBatch") or 0
kept.kill()
clean.kill()
time.sleep(10)
kept_web2, clean_web2 = free_port(), free_port()
kept, clean = follower("committee", kept_web2), follower(None, clean_web2)
wait_for(lambda: (batches(kept_web2).get("lastBatch") or 0) >= before + 12, 30, step=0.5)
wait_for(lambda: batches(clean_web2).get("firstBatch") is not None, 15, step=0.5)
after, plain = batches(kept_web2), batches(clean_web2)
keeper.stop()
# (A batch may reach the fleet between reading `before` and the kill: the first one back may be before + 2.)
check(before >= 3 and after.get("firstBatch") is not None and after["firstBatch"] <= before + 2
      and after.get("missingBatches") == 0 and after.get("lastBatch", 0) >= before + 12,
      f"a fleet with --session killed (SIGKILL) for 10 s while the boat sent: back, it got batches {after.get('firstBatch')}"
      f" to {after.get('lastBatch')}, none missing (it had seen {before})", after)
check(plain.get("firstBatch") is not None and plain["firstBatch"] >= (after.get("firstBatch") or 0) + 5,
      f"one without a session never sees what was sent while it was down (its first batch back: {plain.get('firstBatch')})",
      plain)
for process in (kept, clean):
    process.terminate()
stop(keep_broker)
check.finish()
