"""GRIB forecasts through Telltale, against ECMWF's own ecCodes and hand-worked values.

    weather_check.py BINARY

1. GRIB files written with ecCodes (Debian's python3-eccodes, weather_grib.py): NCEP-style GRIB1 as Saildocs sends
   it, ECMWF-style GRIB2, one for the Aegean, one from a run of 2020. Every field is linear in latitude, longitude
   and time, so the forecast anywhere inside is the field's formula: `telltale weather import` then `weather show
   --at --time --json` at points between the grid's points and times must give it (wind, gust, pressure, rain as a
   rate from NCEP's 0-3/0-6 h and ECMWF's from-the-start accumulations, cloud), across Greenwich (0-360 grids).
2. Of several grids the latest run is used; the Aegean one is said not to cover the boat, the 2020 one out of date.
3. Broken files are refused with their reason and never crash the import: text, a GRIB cut short, bytes flipped in
   the data, random bytes with "GRIB" in them, a temperature-only GRIB, a Lambert grid.
4. A running gateway with [weather] grib a folder and wind_fallback, a GPS on UDP and no anemometer: a GRIB dropped
   into the folder is imported by its own process and taken; the forecast at the boat is under meteo.forecast,
   the wind under telltale.forecast with the boat's own motion; the weather API answers point forecasts; a phone
   uploads a GRIB in pieces (a bad name, a piece out of order and a file too long refused); a broken GRIB in the
   folder is logged, and the gateway lives on.
5. The panel in Debian's chromium: the Weather layout's meteogram has the file's wind at the right hours (each
   arrow at its time on the axis, its speed the formula's, the hours labelled where they fall), the forecasts on
   board listed in use, a GRIB chosen on the phone sent and imported; the wind tiles marked "forecast". A
   screenshot goes to .build/weather-screenshots.
Prints ok/FAIL per check and `weather-check: N passed, M failed`.
"""
import calendar
import json
import math
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from support import Checks, free_port, Gateway, nmea_position, sentence, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402
from weather_panel import weather_panel  # noqa: E402
from weather_broken import broken_files  # noqa: E402

binary = sys.argv[1]
work = tempfile.mkdtemp()
check = Checks("weather-check")
DEBIAN_PYTHON = "/usr/bin/python3"
FIELDS_CODE = f"import sys; sys.path.insert(0, {HERE!r}); import weather_grib as w"


def make(kind, path, date, hour, steps, **grid):
    """A GRIB written by ecCodes in Debian's python3 (weather_grib.py)."""
    code = f"{FIELDS_CODE}; w.{kind}({path!r}, {date}, {hour}, {list(steps)!r}, **{grid!r})"
    subprocess.run([DEBIAN_PYTHON, "-c", code], check=True)


def telltale(*arguments):
    return subprocess.run([binary, *arguments], capture_output=True, text=True, timeout=120)


def unix(date, hour):
    return calendar.timegm(time.strptime(f"{date}{hour:02d}", "%Y%m%d%H"))


# The fields' own formulas (weather_grib.FIELDS), here without ecCodes.
FIELDS = {
    "u": (4.0, 0.5, -0.25, 0.1), "v": (-3.0, -0.2, 0.4, 0.05), "pressure": (101_300.0, -40.0, 25.0, -50.0),
    "gust": (9.0, 0.3, 0.1, 0.02), "rain": (1.5, 0.1, 0.05, 0.0), "cloud": (60.0, 2.0, -1.0, 0.5),
}


def field(name, lat, lon, hours, lat0=48.0, lon0=-5.0):
    base, per_lat, per_lon, per_hour = FIELDS[name]
    return base + per_lat * (lat - lat0) + per_lon * (lon - lon0) + per_hour * hours


# --- 1. Values worked by hand -------------------------------------------------------------------------------------
DATE = 20261125
ncep = os.path.join(work, "ncep.grb")
ecmwf = os.path.join(work, "ecmwf.grib2")
aegean = os.path.join(work, "aegean.grb2")
old = os.path.join(work, "old.grb")
make("grib1_ncep", ncep, DATE, 0, range(0, 25, 3))
make("grib2_ecmwf", ecmwf, DATE, 6, range(0, 25, 3))
make("grib2_ecmwf", aegean, DATE, 6, range(0, 25, 3), south=36.0, west=23.0)
make("grib1_ncep", old, 20200101, 0, range(0, 25, 3))
grids = os.path.join(work, "grids")
result = telltale("weather", "import", ncep, ecmwf, aegean, old, "--into", grids)
check(result.returncode == 0, "four GRIB files imported (GRIB1 and GRIB2)", result.stderr)
check("ncep.grb (kwbc)" in result.stdout and "ecmwf.grib2 (ecmf)" in result.stdout,
      "each labelled with its file and centre", result.stdout)
check("wind-east, wind-north, gust, pressure, precipitation, cloud" in result.stdout,
      "ECMWF's six fields read (gust, rain, cloud among them)", result.stdout)


def show(files, lat, lon, when, *extra):
    out = telltale("weather", "show", *files, "--at", f"{lat},{lon}", "--time", str(when), "--json", *extra)
    return json.loads(out.stdout) if out.returncode == 0 else {"error": out.stderr}


def compare(grid, run, hours_from_run, lat, lon, names):
    """The grid's forecast at a point and time against the formulas; the largest error of each field."""
    when = run + hours_from_run * 3600
    sample = show([grid], lat, lon, when)["samples"][0]
    errors = {}
    for name in names:
        if name == "wind":
            errors["u"] = abs(sample["windEast"] - field("u", lat, lon, hours_from_run))
            errors["v"] = abs(sample["windNorth"] - field("v", lat, lon, hours_from_run))
        elif name == "rain":
            errors[name] = abs(sample["precipitation"] - field("rain", lat, lon, 0))
        else:
            errors[name] = abs(sample[name] - field(name, lat, lon, hours_from_run))
    return errors


random.seed(29)
points = [(48.0 + random.random() * 4, -5.0 + random.random() * 6, random.random() * 23 + 0.5) for _ in range(12)]
points += [(50.25, -0.2, 4.5), (50.25, 0.35, 7.0), (48.0, -5.0, 0.0), (52.0, 1.0, 24.0)]
limits = {"u": 0.02, "v": 0.02, "pressure": 2.0, "gust": 0.02, "rain": 0.02, "cloud": 0.1}
for grid, run, names in [
    (os.path.join(grids, "ncep.grb.ttwx"), unix(DATE, 0), ["wind", "pressure", "rain", "cloud"]),
    (os.path.join(grids, "ecmwf.grib2.ttwx"), unix(DATE, 6), ["wind", "pressure", "gust", "rain", "cloud"]),
]:
    worst = {}
    for lat, lon, hours in points:
        if hours < 3 and "rain" in names:
            # Before the first accumulation there is no rate: the point at the run time is checked without it.
            errors = compare(grid, run, hours, lat, lon, [n for n in names if n != "rain"])
        else:
            errors = compare(grid, run, hours, lat, lon, names)
        for name, error in errors.items():
            worst[name] = max(worst.get(name, 0), error)
    label = os.path.basename(grid)
    for name, error in sorted(worst.items()):
        check(error <= limits[name], f"{label}: {name} at 16 points between the grid's points and times, within "
              f"{limits[name]} of the formula (worst {error:.4f})")

# Bilinear and linear, worked by hand at one point: ECMWF, 50.25N 1.3W, 4.5 h after the run.
sample = show([os.path.join(grids, "ecmwf.grib2.ttwx")], 50.25, -1.3, unix(DATE, 6) + 4.5 * 3600)["samples"][0]
u = 4 + 0.5 * 2.25 - 0.25 * 3.7 + 0.1 * 4.5  # 4.65
v = -3 - 0.2 * 2.25 + 0.4 * 3.7 + 0.05 * 4.5  # -1.745
direction = (math.degrees(math.atan2(u, v)) + 180) % 360
check(abs(sample["windDirection"] - direction) < 0.3 and abs(sample["windSpeed"] - math.hypot(u, v)) < 0.03,
      f"wind at 50.25N 1.3W +4.5 h: {math.hypot(u, v):.3f} m/s from {direction:.1f} deg by hand",
      json.dumps(sample))

# --- 2. Which grid speaks for the boat ----------------------------------------------------------------------------
names = ["ncep.grb.ttwx", "ecmwf.grib2.ttwx", "aegean.grb2.ttwx", "old.grb.ttwx"]
answer = show([os.path.join(grids, n) for n in names], 50.5, -1.2, unix(DATE, 9))
uses = {g["label"].split(" ")[0]: g["use"] for g in answer["grids"]}
check(uses.get("ecmwf.grib2") == "in use" and "later or finer" in uses.get("ncep.grb", ""),
      "the later run (06Z) is used over the earlier (00Z)", json.dumps(uses))
check("does not cover the boat" in uses.get("aegean.grb2", ""), "the Aegean forecast is said not to cover the boat",
      uses.get("aegean.grb2", ""))
check(uses.get("old.grb", "").startswith("out of date: it ended 2020-01-02T00:00"),
      "the 2020 forecast is said to be out of date, with when it ended", uses.get("old.grb", ""))
later = show([os.path.join(grids, n) for n in names], 50.5, -1.2, unix(DATE + 1, 7))
check(later["samples"] == [] and all(g["use"].startswith("out of date") or "cover" in g["use"]
                                      for g in later["grids"]),
      "past every forecast's end: no forecast at all, each said out of date", json.dumps(later)[:300])

broken = broken_files(DATE, DEBIAN_PYTHON, check, ncep, show, telltale, unix, work)

# --- 4. A running gateway -----------------------------------------------------------------------------------------
today = time.strftime("%Y%m%d", time.gmtime())
run_hour = time.gmtime().tm_hour // 6 * 6
live = os.path.join(work, "live.grb")
make("grib1_ncep", live, int(today), run_hour, range(0, 49, 3), south=49.0, west=-3.0)
folder = os.path.join(work, "gribs")
state = os.path.join(work, "state")
os.makedirs(folder)
os.makedirs(state)
web, udp = free_port(), free_port(socket.SOCK_DGRAM)
BOAT = (50.2, -1.3)
gateway = Gateway(binary, f"""status_line = false
state_file = "{state}/state.toml"
[[input]]
name = "gps"
url = "udp://127.0.0.1:{udp}"
[weather]
grib = "{folder}"
wind_fallback = true
interval = 1
[web]
listen = "127.0.0.1:{web}"
put_networks = ["loopback"]
""", work=work).start(wait=[web])
sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)


def gps():
    """A fix at the boat sailing 090 at 5 kn, now."""
    now = time.gmtime()
    rmc = (f"GPRMC,{time.strftime('%H%M%S', now)}.00,A,{nmea_position(BOAT[0], 'NS')},"
           f"{nmea_position(BOAT[1], 'EW')},5.0,90.0,{time.strftime('%d%m%y', now)},,,A")
    sender.sendto(sentence(rmc), ("127.0.0.1", udp))


def get(path):
    return HTTP(web, timeout=5).text(path)


def put(path, body):
    request = urllib.request.Request(f"http://127.0.0.1:{web}{path}", data=body, method="PUT")
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def fed(predicate, seconds):
    def step():
        gps()
        return predicate()
    return wait_for(step, seconds, step=0.5)


shutil.copy(live, os.path.join(folder, "live.grb"))
# The folder is looked at every second; a file younger than 2 s waits (a copy may not be whole yet).
check(fed(lambda: "1 forecast on board" in gateway.log(), 20), "the GRIB dropped into the folder is imported and taken",
      gateway.log()[-1500:])
check("weather: importing" in gateway.log() and "live.grb (kwbc): run" in gateway.log(),
      "the log says the import and what it found")
check(fed(lambda: get("/signalk/v1/api/meteo/forecast")[0] == 200, 10), "the forecast at the boat: meteo.forecast")
status, body = get("/signalk/v1/api/meteo/forecast")
meteo = json.loads(body) if status == 200 else {}
hours = (time.time() - unix(int(today), run_hour)) / 3600
u, v = field("u", *BOAT, hours, 49.0, -3.0), field("v", *BOAT, hours, 49.0, -3.0)
speed = meteo.get("environment", {}).get("wind", {}).get("speedTrue", {}).get("value", -1)
check(abs(speed - math.hypot(u, v)) < 0.1, f"its wind is the file's at the boat now ({math.hypot(u, v):.2f} m/s)",
      json.dumps(meteo)[:300])
check(meteo.get("environment", {}).get("wind", {}).get("speedTrue", {}).get("$source") == "telltale.forecast",
      "under $source telltale.forecast")
status, body = get("/signalk/v1/api/vessels/self/environment/wind/speedTrue")
own = json.loads(body) if status == 200 else {}
check(own.get("$source") == "telltale.forecast" and abs(own.get("value", -1) - math.hypot(u, v)) < 0.1,
      "no anemometer: the boat's true wind is the forecast's, under telltale.forecast", body[:200])
status, body = get("/signalk/v1/api/vessels/self/telltale/wind/forecast")
check(status == 200 and json.loads(body).get("value") is True, "and flagged as forecast", body[:200])
status, body = get("/signalk/v1/api/vessels/self/environment/wind/speedApparent")
# Apparent from the forecast's true wind and the boat's motion (5 kn east, the course as the bow).
towards = math.degrees(math.atan2(u, v))
boat = 5 * 1852 / 3600
apparent = math.hypot(u - boat, v)
check(status == 200 and abs(json.loads(body)["value"] - apparent) < 0.15,
      f"apparent wind from it and the boat's motion ({apparent:.2f} m/s)", body[:200])
status, body = get(f"/signalk/v2/api/weather/forecasts/point?lat={BOAT[0]}&lon={BOAT[1]}&count=3")
points = json.loads(body) if status == 200 else []
ok = status == 200 and len(points) == 3 and all(p["type"] == "point" for p in points)
if ok:
    second = points[1]
    t = calendar.timegm(time.strptime(second["date"][:19], "%Y-%m-%dT%H:%M:%S"))
    h = (t - unix(int(today), run_hour)) / 3600
    ok = abs(second["wind"]["speedTrue"] - math.hypot(field("u", *BOAT, h, 49, -3), field("v", *BOAT, h, 49, -3))) < 0.05
    ok = ok and abs(second["outside"]["pressure"] - field("pressure", *BOAT, h, 49, -3)) < 3
check(ok, "Signal K's weather API: 3 point forecasts, the second at a forecast time, as the file says", body[:300])
check(get("/signalk/v2/api/weather/forecasts/point?lat=x&lon=2")[0] == 400, "weather API: a bad position is 400")
check(fed(lambda: json.loads(get("/telltale/v1/weather")[1]).get("meteogram"), 10),
      "the weather page has a meteogram at the boat")
page = json.loads(get("/telltale/v1/weather")[1])
check(len(page["meteogram"]) >= 15 and page["grids"][0]["used"], "48 hours of it, from the grid in use",
      json.dumps(page)[:300])

# A phone uploads the ECMWF GRIB in 16 KB pieces.
data = open(ecmwf, "rb").read()
answers = []
for offset in range(0, len(data), 16384):
    answers.append(put(f"/telltale/v1/weather/grib?name=phone.grib2&offset={offset}&total={len(data)}",
                       data[offset:offset + 16384]))
check(answers[-1][0] == 201 and all(a[0] == 202 for a in answers[:-1]),
      f"a phone's GRIB in {len(answers)} pieces: 202 for each, 201 when whole", str(answers)[:300])
check(fed(lambda: "2 forecasts on board" in gateway.log(), 20), "the phone's GRIB is imported too",
      gateway.log()[-800:])
check(put("/telltale/v1/weather/grib?name=../etc/x&offset=0&total=10", b"0123456789")[0] == 400,
      "a name that is a path is refused (400)")
check(put("/telltale/v1/weather/grib?name=a.grb&offset=5&total=10", b"56789")[0] == 409,
      "a piece out of order is refused with where to resend from (409)")
check(put(f"/telltale/v1/weather/grib?name=a.grb&offset=0&total={64 << 20}", b"x")[0] == 400,
      "a file over 32 MB is refused (400)")
weather_panel(BOAT, check, fed, field, gateway, get, live, make, run_hour, show, telltale, today, unix, web, work)

# A broken GRIB in the folder: said in the log, not used, the gateway alive.
with open(os.path.join(folder, "junk.grb"), "wb") as f:
    f.write(broken["random.grb"])
check(fed(lambda: "junk.grb: not a GRIB file" in gateway.log(), 20), "a broken GRIB in the folder is said in the log",
      gateway.log()[-800:])
time.sleep(1.5)
check(gateway.alive() and "forecasts on board" not in gateway.log().split("junk.grb")[-1],
      "the gateway lives on, its forecasts as they were")
gateway.stop()
check.finish()
