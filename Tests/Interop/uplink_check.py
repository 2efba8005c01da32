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
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from support import ROOT, Checks, Gateway, free_port, OutputReader, stop, demo_input  # noqa: E402
from uplink_batches import every_batch  # noqa: E402
from uplink_ashore import fleet_ashore, kept_session, slow_broker  # noqa: E402

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
every_batch(check, lines, history, killed_at)

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

slow_broker(binary, work, check, procs)
fleet_ashore(binary, work, check, procs)
kept_session(binary, work, check, procs)
check.finish()
