"""Boats as the uplink publishes them, by the hundred, for `telltale fleet`'s store (the fleet-store check and
Benchmarks/fleet.sh).

    fleet_load.py --brokers PORT[,PORT...] --boats N --seconds S [--batch B] [--prefix load] [--first 0]
                  [--report FILE] [--duplicates] [--hostile]

Each boat is `<prefix>-<n>`, sends to one broker picked as the uplink picks (FNV-1a of its id, modulo the brokers),
samples every group each second (or every `--period` seconds) (position, speed and course, heading, through the water, wind true and apparent,
heel, pitch, rate of turn, depth, pressure, the race's numbers, AIS: 23 values), and publishes a history batch of
them every B seconds (`telltale/<boat>/history`, QoS 1, numbered from 1), its `online` flag first. A boat sails a
straight line from a start off the Isle of Wight at 6 knots on a heading of its own. The last sample of each batch is
stamped with the time the batch is published, so the store's lag is now less that.

With `--duplicates` one batch in 20 is published twice (as after a lost acknowledgement); with `--hostile` a flood of
what a boat never sends goes out beside (broken JSON, a 2 MB payload, a batch naming another boat, a boat id that is
not one, a batch from 1970, an `online` that is not true or false).

The report (JSON) lists, per boat, the batch numbers the broker acknowledged (PUBACK): the store must hold each of
them exactly once.
"""
import argparse
import json
import math
import threading
import time

import paho.mqtt.client as mqtt

parser = argparse.ArgumentParser()
parser.add_argument("--brokers", required=True)
parser.add_argument("--boats", type=int, required=True)
parser.add_argument("--seconds", type=float, required=True)
parser.add_argument("--batch", type=float, default=10)
parser.add_argument("--period", type=float, default=1, help="seconds between two samples of a value (1: 1 Hz)")
parser.add_argument("--prefix", default="load")
parser.add_argument("--first", type=int, default=0)
parser.add_argument("--report")
parser.add_argument("--duplicates", action="store_true")
parser.add_argument("--hostile", action="store_true")
args = parser.parse_args()

ports = [int(p) for p in args.brokers.split(",")]


def broker_index(boat, count):
    if count <= 1:
        return 0
    h = 2166136261
    for byte in boat.encode():
        h ^= byte
        h = (h * 16777619) & 0xFFFFFFFF
    return h % count


def stamp(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % int((t % 1) * 1000)


boats = [f"{args.prefix}-{n}" for n in range(args.first, args.first + args.boats)]
lock = threading.Lock()
acked = {boat: [] for boat in boats}
pending = {}
clients = []
connected = []


hostile_acked = [0]


def on_publish(client, userdata, mid, reason_code=None, properties=None):
    with lock:
        entry = pending.pop((id(client), mid), None)
        if entry and entry[1] is None:
            hostile_acked[0] += 1
        elif entry:
            acked[entry[0]].append(entry[1])


for index, port in enumerate(ports):
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{args.prefix}-publisher-{index}-{args.first}",
                    clean_session=False)
    c.max_inflight_messages_set(1000)
    c.max_queued_messages_set(0)
    c.on_publish = on_publish
    c.reconnect_delay_set(1, 4)
    c.connect("127.0.0.1", port, 30)
    c.loop_start()
    clients.append(c)

PATHS = [
    ("navigation.speedOverGround", lambda b, t: 3.09 + 0.1 * math.sin(t / 7 + b)),
    ("navigation.courseOverGroundTrue", lambda b, t: (b * 0.37) % 6.28),
    ("navigation.headingTrue", lambda b, t: (b * 0.37 + 0.05) % 6.28),
    ("navigation.speedThroughWater", lambda b, t: 2.9 + 0.1 * math.cos(t / 5 + b)),
    ("environment.wind.speedTrue", lambda b, t: 7.2 + math.sin(t / 30)),
    ("environment.wind.directionTrue", lambda b, t: 4.1),
    ("environment.wind.angleTrueWater", lambda b, t: 0.8),
    ("environment.wind.speedApparent", lambda b, t: 9.1),
    ("environment.wind.angleApparent", lambda b, t: 0.6),
    ("navigation.attitude.roll", lambda b, t: 0.21),
    ("navigation.attitude.pitch", lambda b, t: 0.02),
    ("navigation.rateOfTurn", lambda b, t: 0.0),
    ("environment.depth.belowTransducer", lambda b, t: 14.5),
    ("environment.outside.pressure", lambda b, t: 101310.0),
    ("navigation.racing.timeToStart", lambda b, t: -600.0),
    ("navigation.racing.distanceStartline", lambda b, t: 120.0),
    ("performance.polarSpeedRatio", lambda b, t: 0.93),
    ("navigation.course.calcValues.distance", lambda b, t: 5200.0),
    ("navigation.course.calcValues.timeToGo", lambda b, t: 1700.0),
    ("navigation.course.calcValues.crossTrackError", lambda b, t: 12.0),
    ("telltale.ais.stations", lambda b, t: 14.0),
    ("telltale.ais.closest", lambda b, t: 900.0),
]
START_LAT, START_LON = 50.70, -1.20
SPEED = 6 * 1852 / 3600


def position(b, t, t0):
    heading = (b * 0.37) % (2 * math.pi)
    d = SPEED * (t - t0)
    lat = START_LAT + 0.002 * (b % 50) + d * math.cos(heading) / 111320
    lon = START_LON + 0.002 * (b // 50) + d * math.sin(heading) / (111320 * math.cos(math.radians(lat)))
    return lat, lon


def publish(boat, topic, payload, seq=None, hostile=False):
    client = clients[broker_index(boat, len(clients))]
    info = client.publish(topic, payload, qos=1)
    if seq is not None or hostile:
        with lock:
            if info.rc == mqtt.MQTT_ERR_SUCCESS or info.rc == mqtt.MQTT_ERR_NO_CONN:
                pending[(id(client), info.mid)] = (boat, seq)
    return info


t0 = time.time()
sequence = {boat: 0 for boat in boats}
for boat in boats:
    publish(boat, f"telltale/{boat}/online", "true")
published = 0
duplicates = 0
hostile = 0
next_batch = {boat: t0 + args.batch * (n / max(1, len(boats))) for n, boat in enumerate(boats)}
last = {boat: t0 for boat in boats}
end = t0 + args.seconds
while time.time() < end:
    now = time.time()
    due = [boat for boat in boats if next_batch[boat] <= now]
    for boat in due:
        b = int(boat.rsplit("-", 1)[1])
        sequence[boat] += 1
        seq = sequence[boat]
        samples = []
        start = last[boat]
        # A sample each period since the last batch, the last one now.
        count = max(1, int(round((now - start) / args.period)))
        for k in range(count):
            t = now - (count - 1 - k) * args.period
            ts = stamp(t)
            lat, lon = position(b, t, t0)
            samples.append('{"path":"navigation.position","value":{"latitude":%.7f,"longitude":%.7f},'
                           '"timestamp":"%s","$source":"gps.GP"}' % (lat, lon, ts))
            for path, f in PATHS:
                samples.append('{"path":"%s","value":%.4f,"timestamp":"%s","$source":"telltale"}' % (path, f(b, t), ts))
        last[boat] = now
        payload = ('{"boat":"%s","seq":%d,"late":false,"count":%d,"thinned":0,"alarms":0,"samples":[%s]}'
                   % (boat, seq, len(samples), ",".join(samples)))
        publish(boat, f"telltale/{boat}/history", payload, seq)
        published += 1
        if args.duplicates and seq % 20 == 7:
            publish(boat, f"telltale/{boat}/history", payload, seq)
            duplicates += 1
        if args.hostile and seq % 10 == 3:
            hostile += 1
            kind = (b + seq) % 6
            other = boats[(b + 1) % len(boats)] if len(boats) > 1 else boat
            if kind == 0:
                publish(boat, f"telltale/{boat}/history", '{"boat":"%s","seq":' % boat, hostile=True)
            elif kind == 1:
                publish(boat, f"telltale/{boat}/history", "x" * (2 << 20), hostile=True)
            elif kind == 2:
                publish(boat, f"telltale/{boat}/history",
                        payload.replace(f'"boat":"{boat}"', f'"boat":"{other}"', 1), hostile=True)
            elif kind == 3:
                publish(boat, "telltale/not a boat!/history", payload, hostile=True)
            elif kind == 4:
                publish(boat, f"telltale/{boat}/history",
                        payload.replace('"seq":%d' % seq, '"seq":%d' % (seq + 10**6), 1)
                        .replace(stamp(now)[:4], "1970"), hostile=True)
            else:
                publish(boat, f"telltale/{boat}/online", "maybe", hostile=True)
        next_batch[boat] += args.batch
    time.sleep(0.01)
# The last acknowledgements.
deadline = time.time() + 30
while time.time() < deadline:
    with lock:
        if not pending:
            break
    time.sleep(0.2)
for c in clients:
    c.loop_stop()
    c.disconnect()
# A batch whose acknowledgement never came (the broker restarted under it) may still have reached the store: QoS 1
# promises at least once, not that the sender hears of it.
unanswered = {}
for boat, seq in pending.values():
    if seq is not None:
        unanswered.setdefault(boat, []).append(seq)
report = {"boats": {boat: sorted(set(seqs)) for boat, seqs in acked.items()}, "published": published,
          "unacknowledgedBatches": unanswered,
          "duplicates": duplicates, "hostile": hostile, "hostileAcknowledged": hostile_acked[0], "unacknowledged": len(pending), "start": t0, "end": time.time(),
          "brokers": {boat: ports[broker_index(boat, len(ports))] for boat in boats}}
if args.report:
    with open(args.report, "w") as f:
        json.dump(report, f)
print(json.dumps({k: v for k, v in report.items() if k not in ("boats", "brokers", "unacknowledgedBatches")}))
