"""A club race for the fleet-store check: eleven boats in three classes (IRC by TCC, Sonar one-design, dinghies by
PY, the dinghies on a gun of their own) sail a windward-leeward off Cowes, published as the uplink publishes them
(a history batch of positions every 10 s), with the race office's files (`--entries` CSV, `--races` TOML) and an
independent reading of the rules in docs/fleet.md with GeographicLib, to hold `telltale fleet`'s standings to.

One IRC boat goes silent a quarter of an hour in; one Sonar is over the line at the gun and comes back; one dinghy
sails wide of the windward mark (outside its zone) and so never rounds it.
"""
import math
import threading
import time

import paho.mqtt.client as mqtt
from geographiclib.geodesic import Geodesic

ORIGIN = (50.7600, -1.3000)
G = Geodesic.WGS84
M_LAT = G.Inverse(ORIGIN[0] - 0.0005, ORIGIN[1], ORIGIN[0] + 0.0005, ORIGIN[1])["s12"] / 0.001
M_LON = G.Inverse(ORIGIN[0], ORIGIN[1] - 0.0005, ORIGIN[0], ORIGIN[1] + 0.0005)["s12"] / 0.001


def geo(x, y):
    return ORIGIN[0] + y / M_LAT, ORIGIN[1] + x / M_LON


def plane(lat, lon):
    return (lon - ORIGIN[1]) * M_LON, (lat - ORIGIN[0]) * M_LAT


LINE = (geo(-100, 0), geo(100, 0))
MARK = geo(0, 1852)
ZONE = 100
DINGHY_DELAY = 300
# (boat, class, speed m/s, TCC, PY, how it sails)
BOATS = [
    ("race-irc-1", "IRC", 3.0, 1.200, None, ""), ("race-irc-2", "IRC", 2.8, 1.100, None, ""),
    ("race-irc-3", "IRC", 2.6, 1.000, None, ""), ("race-irc-4", "IRC", 2.4, 0.950, None, ""),
    ("race-irc-5", "IRC", 2.0, 1.020, None, "silent"),
    ("race-sonar-1", "Sonar", 2.2, None, None, ""), ("race-sonar-2", "Sonar", 2.1, None, None, ""),
    ("race-sonar-3", "Sonar", 2.3, None, None, "early"),
    ("race-dinghy-1", "Dinghy", 2.0, None, 1100, ""), ("race-dinghy-2", "Dinghy", 1.3, None, 1030, ""),
    ("race-dinghy-3", "Dinghy", 1.9, None, 1200, "wide"),
]
SILENT_AFTER = 900


def entries_csv():
    rows = ["Sail Number,Boat,Name,Class,TCC,PY,Colour"]
    for n, (boat, group, _, tcc, py, _) in enumerate(BOATS):
        rows.append(f"GBR {100 + n},{boat},\"{boat.split('-', 1)[1].title()}, of Cowes\",{group},"
                    f"{'' if tcc is None else tcc},{'' if py is None else py},{'#c00' if group == 'IRC' else ''}")
    # The real gateways, entered as cruisers: not in the race's classes.
    rows += ["GBR 7,real-0,Zero,Cruiser,,,", "GBR 8,real-1,One,Cruiser,,,", "GBR 9,real-2,Two,Cruiser,,,"]
    return "\n".join(rows) + "\n"


def stamp(t):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + "Z"


def races_toml(gun):
    return f"""# The fleet-store check's race
[[race]]
name = "Check race"
start = "{stamp(gun)}"
time_limit = "{stamp(gun + 3 * 3600)}"
classes = ["IRC", "Sonar", "Dinghy"]
starts = {{ Dinghy = "{stamp(gun + DINGHY_DELAY)}" }}
line = [[{LINE[0][0]:.7f}, {LINE[0][1]:.7f}], [{LINE[1][0]:.7f}, {LINE[1][1]:.7f}]]
zone = {ZONE}
marks = [{{ name = "Windward", at = [{MARK[0]:.7f}, {MARK[1]:.7f}] }}]
"""


def gun_of(group, gun):
    return gun + (DINGHY_DELAY if group == "Dinghy" else 0)


def path_of(n):
    boat, group, speed, _, _, how = BOATS[n]
    x0 = -70 + 13 * n
    points = [(x0, -60)]
    if how == "early":
        points = [(x0, -30), (x0, 40), (x0, -30)]
    y, side = 0, 1 if n % 2 else -1
    while y + 450 < 1700:
        y += 450
        points.append((side * 120, y))
        side = -side
    points.append((260, 1852) if how == "wide" else (10, 1892))
    points.append((-40 + 7 * n, -60))
    # Leaves so as to cross 5 s apart after its gun (the early one is 40 m over at the gun).
    if how == "early":
        return points, speed, 70 / speed
    return points, speed, 60 / speed - 5 * (n % 8) - 3


def position(n, t, gun):
    points, speed, lead = path_of(n)
    leave = gun_of(BOATS[n][1], gun) - lead
    d = max(0.0, (t - leave) * speed)
    x, y = points[0]
    for a, b in zip(points, points[1:]):
        leg = math.hypot(b[0] - a[0], b[1] - a[1])
        if d <= leg:
            x, y = a[0] + (b[0] - a[0]) * d / leg, a[1] + (b[1] - a[1]) * d / leg
            break
        d -= leg
        x, y = b
    return geo(x, y)


def samples(n, gun, until):
    """(time, latitude, longitude) every 10 s from ten minutes before the first gun to `until`."""
    out = []
    t = math.ceil((gun - 600) / 10) * 10
    end = min(until, gun + SILENT_AFTER) if BOATS[n][5] == "silent" else until
    while t <= end:
        out.append((t,) + position(n, t, gun))
        t += 10
    return out


def fnv(boat, count):
    h = 2166136261
    for byte in boat.encode():
        h ^= byte
        h = (h * 16777619) & 0xFFFFFFFF
    return h % count


class Publisher(threading.Thread):
    """The race as the boats' uplinks send it: what is past at once (late history), then a batch every 10 s."""

    def __init__(self, ports, gun):
        super().__init__(daemon=True)
        self.ports, self.gun, self.stopping = ports, gun, threading.Event()
        self.sent = {boat: 0.0 for boat, *_ in BOATS}
        self.seq = {boat: 0 for boat, *_ in BOATS}
        self.published = 0

    def run(self):
        clients = []
        for port in self.ports:
            c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"race-boats-{port}")
            c.connect("127.0.0.1", port)
            c.loop_start()
            clients.append(c)
        first = True
        while not self.stopping.is_set():
            now = time.time()
            for n, (boat, *_rest) in enumerate(BOATS):
                client = clients[fnv(boat, len(clients))]
                if first:
                    client.publish(f"telltale/{boat}/online", "true", qos=1, retain=True)
                new = [s for s in samples(n, self.gun, now) if s[0] > self.sent[boat]]
                for k in range(0, len(new), 30):
                    chunk = new[k:k + 30]
                    self.seq[boat] += 1
                    body = ",".join('{"path":"navigation.position","value":{"latitude":%.7f,"longitude":%.7f},'
                                    '"timestamp":"%s","$source":"gps.GP"}' % (lat, lon, stamp(t))
                                    for t, lat, lon in chunk)
                    late = "true" if now - chunk[-1][0] > 60 else "false"
                    client.publish(f"telltale/{boat}/history",
                                   '{"boat":"%s","seq":%d,"late":%s,"count":%d,"thinned":0,"alarms":0,"samples":[%s]}'
                                   % (boat, self.seq[boat], late, len(chunk), body), qos=1)
                    self.sent[boat] = chunk[-1][0]
                    self.published += 1
            first = False
            self.stopping.wait(10)
        time.sleep(1)
        for c in clients:
            c.loop_stop()
            c.disconnect()


# ---- The rules, read again independently ---------------------------------------------------------------------------

def _side(a, b, p):
    c = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    return (c > 0) - (c < 0)


def _cross(p, q, a, b):
    """Where along p→q (0..1) it crosses segment a-b, or None."""
    r = (q[0] - p[0], q[1] - p[1])
    s = (b[0] - a[0], b[1] - a[1])
    d = r[0] * s[1] - r[1] * s[0]
    if d == 0:
        return None
    w = (a[0] - p[0], a[1] - p[1])
    t = (w[0] * s[1] - w[1] * s[0]) / d
    u = (w[0] * r[1] - w[1] * r[0]) / d
    return t if 0 <= t <= 1 and 0 <= u <= 1 else None


def _round(p, q, mark, frm, zone):
    """The first fraction of p→q within `zone` of the mark and level with it or past it (seen from `frm`), by
    stepping finely along the step (no algebra shared with the gateway)."""
    ux, uy = mark[0] - frm[0], mark[1] - frm[1]
    norm = math.hypot(ux, uy)
    ux, uy = ux / norm, uy / norm
    if min(math.hypot(p[0] - mark[0], p[1] - mark[1]), math.hypot(q[0] - mark[0], q[1] - mark[1])) > \
            zone + math.hypot(q[0] - p[0], q[1] - p[1]):
        return None
    steps = 2000
    for k in range(steps + 1):
        f = k / steps
        x, y = p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f
        if math.hypot(x - mark[0], y - mark[1]) <= zone and (x - mark[0]) * ux + (y - mark[1]) * uy >= 0:
            return f
    return None


def reference(n, gun, until):
    """The boat's standing by the rules, from what it sent up to `until`."""
    boat, group, _, tcc, py, _ = BOATS[n]
    g = gun_of(group, gun)
    line = (plane(*LINE[0]), plane(*LINE[1]))
    mark = plane(*MARK)
    start_mid = ((line[0][0] + line[1][0]) / 2, (line[0][1] + line[1][1]) / 2)
    course_side = _side(line[0], line[1], mark)
    mid = ((LINE[0][0] + LINE[1][0]) / 2, (LINE[0][1] + LINE[1][1]) / 2)
    leg = G.Inverse(*mid, *MARK)["s12"]
    length = 2 * leg
    st = {"status": "not started", "started": None, "rounded": 0, "finished": None, "sailed": 0.0, "last": None}
    prev = None
    for t, lat, lon in samples(n, gun, until):
        p = plane(lat, lon)
        st["last"] = (t, lat, lon)
        if prev is not None:
            pt, plat, plon, pp = prev
            step = G.Inverse(plat, plon, lat, lon)["s12"]
            if st["status"] == "not started":
                f = _cross(pp, p, *line)
                if (t > g and f is not None and _side(*line, pp) != course_side and _side(*line, p) == course_side
                        and pt + f * (t - pt) >= g):
                    st["started"], st["status"] = pt + f * (t - pt), "racing"
                    st["sailed"] = (1 - f) * step
            elif st["status"] == "racing":
                f = 1.0
                if st["rounded"] == 0:
                    r = _round(pp, p, mark, start_mid, ZONE)
                    if r is not None:
                        st["rounded"] = 1
                else:
                    c = _cross(pp, p, *line)
                    if c is not None:
                        st["finished"], st["status"], f = pt + c * (t - pt), "finished", c
                st["sailed"] += f * step
                if st["status"] == "finished":
                    break
        prev = (t, lat, lon, p)
    t, lat, lon = st["last"]
    if st["status"] == "finished":
        st["toGo"] = 0.0
    elif st["status"] == "not started":
        st["toGo"] = None
    elif st["rounded"] == 0:
        st["toGo"] = G.Inverse(lat, lon, *MARK)["s12"] + leg
    else:
        p = plane(lat, lon)
        st["toGo"] = abs(p[1] - line[0][1])  # the line runs east-west: the distance to it is the northing
    factor = tcc if tcc is not None else (1000 / py if py is not None else 1.0)
    if st["finished"] is not None:
        st["elapsed"] = st["finished"] - g
        st["corrected"] = st["elapsed"] * factor
    elif st["status"] == "racing":
        st["elapsed"] = t - g
        made = length - st["toGo"]
        st["corrected"] = (t - g) * length / made * factor if made > 0 and t > g else None
    else:
        st["elapsed"] = st["corrected"] = None
    return st
