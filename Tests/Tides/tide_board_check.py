"""The tide on board (#51), a real gateway replaying two voyages, read over Signal K and in chromium:

 1. At anchor in Boston Harbor (a recorded-style log: fixes and soundings on 2026-08-15 from 05:00 UTC): the tide
    paths as signalk-tides publishes them agree with the independent predictor (libtcd's reading, XTide's tables);
    the depth at the next low water is the sounding less the tide now plus the tide then, under the keel; with the
    anchor down and too little water at that low water the low-water alarm is raised and says so.
 2. Through Boundary Pass by Turn Point (2026-07-19 01:00 UTC), the log 5 kn on 000°, the ground track that plus a
    current of 1.5 kn setting 090°: the current measured is that current; the stream predicted is the station's
    own, apart from it.
 3. The panel in chromium: the Tides layout's Tide tile (the height, the next high and low, the curve with now), the
    depth tile's water at low water, the chart's tidal stream arrows at the current stations in view.

    tide_board_check.py TELLTALE HARMONICS.tcd
"""
import calendar
import json
import math
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
sys.path.insert(0, HERE)
from support import Checks, Gateway, free_port, nmea_position, sentence, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402
from libtcd import TCD  # noqa: E402
from tide_reference import Reference  # noqa: E402
import tide_board_panel  # noqa: E402

binary, harmonics = sys.argv[1], sys.argv[2]
check = Checks("tide-board-check")
work = tempfile.mkdtemp(prefix="telltale-tide-board-")
db = TCD(harmonics)
reference = Reference(db)
KNOT = 1852 / 3600


def log(path, start, seconds, point, extra=lambda t: []):
    """A log of one fix a second (RMC) and what `extra` adds each second, from `start` (UNIX seconds)."""
    out = b""
    for i in range(seconds):
        t = time.gmtime(start + i)
        lat, lon = point(i)
        out += sentence(f"GPRMC,{time.strftime('%H%M%S', t)}.00,A,{nmea_position(lat, 'NS')},"
                        f"{nmea_position(lon, 'EW')},{extra(i)[0] if extra(i) else '0.0,0.0'},"
                        f"{time.strftime('%d%m%y', t)},,,A")
        for line in (extra(i)[1:] if extra(i) else []):
            out += sentence(line)
    open(path, "wb").write(out)


def config(logfile, web, extra=""):
    """Each voyage its own state folder: an anchor set in one is not the other's."""
    state = os.path.join(work, os.path.basename(logfile) + ".state")
    return (f'status_line = false\nstate_file = "{state}/state.toml"\n[[input]]\nname = "log"\n'
            f'url = "file:{logfile}"\n[web]\nlisten = "127.0.0.1:{web}"\n' + extra)


def value(http, path):
    status, body = http.text("/signalk/v1/api/vessels/self/" + path.replace(".", "/"))
    return json.loads(body) if status == 200 else None


def unix(text):
    return calendar.timegm(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")) + float(text[19:-1] or 0)


def boston(web):
    """1. At anchor in Boston Harbor."""
    start = calendar.timegm((2026, 8, 15, 5, 0, 0))
    path = os.path.join(work, "boston.nmea")
    log(path, start, 900, lambda i: (42.3550, -71.0500), lambda i: ["0.0,0.0", "SDDPT,5.0,0.0"])
    gateway = Gateway(binary, config(path, web, "[boat]\ndraft = 1.5\ntransducer_depth = 0.5\n"
                                     "[alarms]\nlow_water = 2.0\n"), work=work, name="boston").start(wait=[web])
    http = HTTP(web)
    check(wait_for(lambda: value(http, "environment.tide.heightNow") and value(http, "environment.tide.depthAtLow"),
                   20, step=0.5),
          "anchored in Boston Harbor: environment.tide.heightNow and depthAtLow in Signal K within seconds",
          gateway.log()[-800:])
    tide = {k: value(http, "environment.tide." + k) for k in
            ("heightNow", "heightHigh", "timeHigh", "heightLow", "timeLow", "depthAtLow")}
    if not all(tide.values()):
        check(False, "every tide path", json.dumps(tide)[:400])
        gateway.stop()
        return gateway, http
    at = unix(tide["heightNow"]["timestamp"])
    boston_station = next(n for n in db.find("Boston, Boston Harbor") if db.record(n)["type"] == 1)
    station = reference.station(boston_station)
    events = station.events(at, at + 86400)
    high = next(e for e in events if e[1] == "high")
    low = next(e for e in events if e[1] == "low")
    ours = {k: v["value"] for k, v in tide.items()}
    check(abs(ours["heightNow"] - station.level(at)) < 0.01
          and abs(unix(ours["timeHigh"]) - high[0]) < 60 and abs(ours["heightHigh"] - high[2]) < 0.01
          and abs(unix(ours["timeLow"]) - low[0]) < 60 and abs(ours["heightLow"] - low[2]) < 0.01,
          f"the height now ({ours['heightNow']:.3f} m), the next high ({ours['timeHigh'][11:16]}, "
          f"{ours['heightHigh']:.2f} m) and low ({ours['timeLow'][11:16]}, {ours['heightLow']:.2f} m) agree with the "
          "independent predictor within 1 cm and 1 min",
          f"{ours} against {station.level(at)}, {high}, {low}")
    expected = 5.0 + 0.5 - 1.5 - ours["heightNow"] + ours["heightLow"]
    check(abs(ours["depthAtLow"] - expected) < 0.02,
          f"the water under the keel at the next low water: {ours['depthAtLow']:.2f} m (the 5.0 m sounding, the "
          "transducer 0.5 m down, a draft of 1.5 m, less the tide now plus the tide then)", str(ours))
    meta = tide["heightNow"].get("meta", {})
    check(meta.get("units") == "m" and tide["timeHigh"]["$source"] == "telltale.computed",
          "in metres, as the computed source, with their meta", json.dumps(tide["heightNow"])[:300])
    status, body = http.text("/telltale/v1/tides")
    answer = json.loads(body) if status == 200 else {}
    curve = answer.get("curve", [])
    check(answer.get("station", {}).get("name", "").startswith("Boston, Boston Harbor") and len(curve) == 217
          and answer.get("station", {}).get("datum") == "Mean Lower Low Water"
          and any(e["type"] == "high" and abs(unix(e["time"]) - unix(ours["timeHigh"])) < 1 for e in answer["events"]),
          "/telltale/v1/tides: Boston's curve from 12 hours ago to a day ahead (217 points), its events, MLLW",
          body[:300])
    status, _ = http.put("navigation/anchor/position", {"latitude": 42.3550, "longitude": -71.0500})
    http.put("navigation/anchor/maxRadius", 40)
    raised = wait_for(lambda: (value(http, "notifications.environment.tide.depthAtLow") or {})
                      .get("value", {}).get("state") == "alarm", 25, step=1)
    alarm = (value(http, "notifications.environment.tide.depthAtLow") or {}).get("value", {})
    check(status == 200 and raised and "under the keel at low water in" in alarm.get("message", ""),
          f"the anchor down with too little water at low water (2 m asked): the low-water alarm, "
          f"\"{alarm.get('message', '')}\"", json.dumps(alarm) + gateway.log()[-500:])
    return gateway, http


def turn_point(web):
    """2. Through Boundary Pass by Turn Point: the current measured and the stream predicted, apart."""
    number = db.find("PUG1717_35") or [n for n in db.find("Turn Point, Boundary Pass (Depth 115.6ft)")]
    rec = db.record(number[0])
    start = calendar.timegm((2026, 7, 19, 1, 0, 0))
    water, current = (5.0, 0.0), (1.5, 90.0)
    ge = water[0] * math.sin(math.radians(water[1])) + current[0] * math.sin(math.radians(current[1]))
    gn = water[0] * math.cos(math.radians(water[1])) + current[0] * math.cos(math.radians(current[1]))
    sog, cog = math.hypot(ge, gn), math.degrees(math.atan2(ge, gn)) % 360
    lat0, lon0 = rec["lat"] - 0.0005, rec["lon"]

    def place(i):
        return (lat0 + gn * KNOT * i / 111320, lon0 + ge * KNOT * i / (111320 * math.cos(math.radians(lat0))))

    path = os.path.join(work, "turnpoint.nmea")
    log(path, start, 300, place, lambda i: [f"{sog:.2f},{cog:.1f}", "HEHDT,000.0,T", "VWVHW,,T,,M,5.00,N,9.26,K"])
    gateway = Gateway(binary, config(path, web), work=work, name="turnpoint").start(wait=[web])
    http = HTTP(web)
    measured = wait_for(lambda: value(http, "environment.current.drift"), 60, step=1)
    drift = (value(http, "environment.current.drift") or {}).get("value", 0)
    sets = (value(http, "environment.current.setTrue") or {}).get("value", 0)
    check(measured and abs(drift / KNOT - 1.5) < 0.1 and abs(math.degrees(sets) - 90) < 3,
          f"the current measured: {drift / KNOT:.2f} kn setting {math.degrees(sets):.0f}° (the ground track less "
          "5 kn on 000°: 1.5 kn setting 090°)", gateway.log()[-500:])
    stream_set = value(http, "environment.tide.streamSetTrue")
    stream_drift = value(http, "environment.tide.streamDrift")
    at = unix(stream_drift["timestamp"]) if stream_drift else start
    station = reference.station(rec["number"])
    speed = station.level(at)
    direction = rec["max_direction"] if speed >= 0 else rec["min_direction"]
    check(stream_set and stream_drift and abs(stream_drift["value"] / KNOT - abs(speed)) < 0.03
          and abs((math.degrees(stream_set["value"]) - direction + 180) % 360 - 180) < 1,
          f"the stream predicted at the station: {stream_drift['value'] / KNOT if stream_drift else 0:.2f} kn setting "
          f"{math.degrees(stream_set['value']) if stream_set else 0:.0f}° (the independent predictor: {abs(speed):.2f} "
          f"kn, {direction}°), apart from the measured", f"{stream_set} {stream_drift}")
    return gateway, http


web = free_port()
gateway, http = boston(web)
tide_board_panel.tide_tile(check, http, web, work)
gateway.stop()
web = free_port()
gateway, http = turn_point(web)
tide_board_panel.stream_arrows(check, http, web, work)
gateway.stop()
check.finish()
