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

# --- 3. Broken files ----------------------------------------------------------------------------------------------
good = open(ncep, "rb").read()
broken = {
    "text.grb": b"This is not a GRIB file at all.\n" * 50,
    "cut.grb": good[:len(good) // 3 + 17],
    "random.grb": bytes(random.getrandbits(8) for _ in range(20000)).replace(b"\x00\x00", b"GRIB"),
}
flipped = bytearray(good)
for i in range(200, len(flipped), 97):
    flipped[i] ^= 0x5A
broken["flipped.grb"] = bytes(flipped)
temperature = os.path.join(work, "temperature.grib2")
subprocess.run([DEBIAN_PYTHON, "-c", f"""import eccodes, numpy
h = eccodes.codes_grib_new_from_samples('regular_ll_sfc_grib2')
eccodes.codes_set(h, 'shortName', '2t')
eccodes.codes_set_values(h, numpy.full(16 * 31, 290.0))
eccodes.codes_write(h, open({temperature!r}, 'wb'))"""], check=True)
lambert = os.path.join(work, "lambert.grib2")
subprocess.run([DEBIAN_PYTHON, "-c", f"""import eccodes
h = eccodes.codes_grib_new_from_samples('lambert_bf_grib2')
eccodes.codes_set(h, 'shortName', '10u')
eccodes.codes_write(h, open({lambert!r}, 'wb'))"""], check=True)
for name, data in broken.items():
    with open(os.path.join(work, name), "wb") as f:
        f.write(data)
reasons = {}
for name in list(broken) + ["temperature.grib2", "lambert.grib2"]:
    out = telltale("weather", "import", os.path.join(work, name), "--into", os.path.join(work, "broken-grids"))
    reasons[name] = (out.returncode, out.stderr.strip() or out.stdout.strip())
check(all(code < 128 for code, _ in reasons.values()), "no broken file crashed the import",
      json.dumps(reasons)[:400])
check(reasons["text.grb"][0] == 65 and "not a GRIB file" in reasons["text.grb"][1], "text: not a GRIB file",
      reasons["text.grb"][1])
check(reasons["random.grb"][0] == 65, "random bytes with GRIB in them: refused", reasons["random.grb"][1])
check(reasons["temperature.grib2"][0] == 65 and "nothing to use" in reasons["temperature.grib2"][1],
      "temperature only: nothing to use, and why", reasons["temperature.grib2"][1])
check(reasons["lambert.grib2"][0] == 65 and "lambert" in reasons["lambert.grib2"][1],
      "a Lambert grid: refused, named", reasons["lambert.grib2"][1])
# A GRIB cut short keeps the messages that are whole; flipped bytes give values ecCodes reads: either imported with
# the impossible values left out, or refused; never a grid with a value out of its range.
for name in ["cut.grb", "flipped.grb"]:
    code, said = reasons[name]
    grid = os.path.join(work, "broken-grids", name + ".ttwx")
    if code == 0:
        inside = show([grid], 50, -1, unix(DATE, 3))
        fine = "error" not in inside
        check(fine, f"{name}: imported what is whole ({said.splitlines()[0][:80]})", json.dumps(inside)[:200])
    else:
        check(code == 65, f"{name}: refused ({said[:80]})", said)

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
# --- 5. The panel in chromium --------------------------------------------------------------------------------------
from browser import chromium  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

driver = chromium(1100, 900, scrollbars=False)
try:
    driver.get(f"http://127.0.0.1:{web}/")
    fed(lambda: driver.execute_script("return !!(window.telltale && telltale.link.connected)"), 10)
    driver.execute_script("telltale.show(telltale.layouts().findIndex(l => l.name === 'Weather'))")
    fed(lambda: driver.execute_script("return document.querySelectorAll('svg.meteogram g.arrow').length") > 10, 15)
    arrows = driver.execute_script("""return [...document.querySelectorAll('svg.meteogram g.arrow')].map(a => ({
        time: Number(a.dataset.time), kn: Number(a.dataset.kn),
        x: a.transform.baseVal.consolidate() ? a.transform.baseVal[0].matrix.e : null}))""")
    check(len(arrows) >= 15, f"the meteogram: {len(arrows)} forecast times at the boat over 48 hours")
    worst = 0.0
    for a in arrows:
        h = (a["time"] - unix(int(today), run_hour)) / 3600
        kn = math.hypot(field("u", *BOAT, h, 49, -3), field("v", *BOAT, h, 49, -3)) * 3600 / 1852
        worst = max(worst, abs(a["kn"] - kn))
    check(worst < 0.2, f"each time's wind is the file's at the boat (worst {worst:.3f} kn)")
    # x along the axis: 20 px at the first time, 440 px 48 hours on (the meteogram's 480-wide drawing).
    t0 = arrows[0]["time"]
    off = max(abs(a["x"] - (20 + (a["time"] - t0) / (48 * 3600) * 440)) for a in arrows)
    grid_times = [a["time"] for a in arrows[1:]]
    check(off < 0.2 and all((t - unix(int(today), run_hour)) % 10800 == 0 for t in grid_times),
          f"each at its hour on the time axis (the file's 3-hourly times; {off:.2f} px at worst)")
    hours = driver.execute_script("""return [...document.querySelectorAll('svg.meteogram text.hour')].map(t => ({
        time: Number(t.dataset.time), x: Number(t.getAttribute('x')), text: t.textContent}))""")
    offset = driver.execute_script("return new Date().getTimezoneOffset()")
    labels_ok = hours and all(
        h["text"] == time.strftime("%H:%M", time.gmtime(h["time"] - offset * 60))
        and abs(h["x"] - (20 + (h["time"] - t0) / (48 * 3600) * 440)) < 0.2 and h["time"] % (6 * 3600) == 0
        for h in hours)
    check(labels_ok, f"the hours labelled where they fall ({', '.join(h['text'] for h in hours[:4])}...)",
          json.dumps(hours[:3]))
    listed = driver.find_element(By.CSS_SELECTOR, ".forecast-list").text
    check("live.grb (kwbc)" in listed and "in use" in listed, "the forecasts on board listed, the one in use said",
          listed)
    screenshots = os.path.join(os.getcwd(), ".build", "weather-screenshots")
    os.makedirs(screenshots, exist_ok=True)
    driver.save_screenshot(os.path.join(screenshots, "weather-day.png"))
    # The forecast anywhere (#42): a tap on the chart at a place that is not the boat's shows the forecast there,
    # each hour of it equal to what `telltale weather show` reads from the same file for the same place and time.
    imported = telltale("weather", "import", live, "--into", os.path.join(work, "live-grid"))
    live_grid = os.path.join(work, "live-grid", "live.grb.ttwx")
    driver.set_window_size(390, 844)
    fed(lambda: driver.execute_script("return window.innerWidth") <= 400, 5)
    driver.execute_script("telltale.show(telltale.layouts().findIndex(l => l.name === 'Chart'))")
    fed(lambda: driver.execute_script("return !!(window.telltaleChart && telltaleChart.map)"), 10)

    def tap(lat, lon, zoom):
        driver.execute_script("telltaleChart.follow = false; telltaleChart.map.setView(arguments[0], arguments[1], "
                              "{animate: false})", [lat, lon], zoom)
        time.sleep(1)
        x, y = driver.execute_script("""const m = telltaleChart.map, p = m.latLngToContainerPoint(arguments[0]);
            const r = m.getContainer().getBoundingClientRect(); return [r.left + p.x, r.top + p.y];""", [lat, lon])
        touch(x, y)

    def touch(x, y):
        finger = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        finger.pointer_action.move_to_location(int(x), int(y)).pointer_down().pointer_up()
        finger.perform()

    def touch_element(selector):
        touch(*driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                                     "return [r.left + r.width / 2, r.top + r.height / 2];", selector))

    tap(50.6, -1.9, 9)
    fed(lambda: driver.execute_script("return !!document.querySelector('.forecast-here tbody tr')"), 10)
    here = driver.execute_script("""const box = document.querySelector('.forecast-here');
        return {lat: Number(box.dataset.lat), lon: Number(box.dataset.lon), rows: [...box.querySelectorAll('tbody tr')]
          .map(r => ({time: Number(r.dataset.time), kn: Number(r.querySelector('.wind').dataset.kn),
                      hpa: r.querySelector('.hpa').textContent, rain: r.querySelector('.rain').textContent,
                      cloud: r.querySelector('.cloud').textContent}))};""")
    driver.save_screenshot(os.path.join(screenshots, "forecast-here-390.png"))
    wrong = []
    for row in here["rows"]:
        said = show([live_grid], here["lat"], here["lon"], row["time"]).get("samples", [{}])[0]
        kn = math.hypot(said.get("windEast", 0), said.get("windNorth", 0)) * 3600 / 1852
        fine = (abs(row["kn"] - kn) < 0.06 and row["hpa"] == f"{said.get('pressure', 0) / 100:.0f}"
                and row["cloud"] == f"{said.get('cloud', -1):.0f}%"
                and (row["rain"] == "—" if said.get("precipitation") is None else
                     abs(float(row["rain"]) - said["precipitation"]) <= 0.051))
        if not fine:
            wrong.append((row, said))
    check(imported.returncode == 0 and 3 <= len(here["rows"]) and not wrong and 50.55 < here["lat"] < 50.65,
          f"a tap on the chart at {here['lat']:.3f}, {here['lon']:.3f}: the forecast there, {len(here['rows'])} hours, "
          "each equal to telltale weather show for the place and time", wrong[:2] or here)
    touch_element(".forecast-more")
    fed(lambda: driver.execute_script("return document.querySelectorAll('.forecast-detail g.arrow').length") > 3, 5)
    arrows = driver.execute_script("return [...document.querySelectorAll('.forecast-detail g.arrow')]"
                                   ".map(a => Number(a.dataset.time))")
    last = unix(int(today), run_hour) + 48 * 3600
    check(arrows and arrows[-1] == last and len(arrows) >= 10,
          f"its summary opens the meteogram there to the forecast's end ({len(arrows)} times, the last 48 h after the run)",
          arrows[-3:])
    driver.save_screenshot(os.path.join(screenshots, "forecast-here-meteogram-390.png"))
    touch_element(".forecast-close")
    check(driver.execute_script("return !document.querySelector('.forecast-detail')"), "and closes with a tap")
    tap(45.0, -10.0, 6)
    fed(lambda: driver.execute_script("return !!document.querySelector('.forecast-here[data-none]')"), 10)
    none = driver.execute_script("const box = document.querySelector('.forecast-here[data-none]') || "
                                 "document.querySelector('.leaflet-popup'); return box ? box.innerText : 'no popup'")
    check("No forecast here" in none and "live.grb" in none and "49.0" in none and "53.0" in none,
          "outside every forecast: it says so, and which area the forecasts on board cover", none)
    driver.set_window_size(1100, 900)
    driver.execute_script("telltale.show(telltale.layouts().findIndex(l => l.name === 'Weather'))")
    fed(lambda: driver.execute_script("return !!document.querySelector('input.grib-file')"), 10)
    # A GRIB chosen on the phone: sent in pieces and imported.
    phone = os.path.join(work, "from-the-phone.grb")
    make("grib1_ncep", phone, int(today), run_hour, range(0, 25, 3), south=40.0, west=5.0)
    driver.find_element(By.CSS_SELECTOR, "input.grib-file").send_keys(phone)
    check(fed(lambda: "from-the-phone.grb received from a phone" in gateway.log(), 20),
          "a GRIB chosen on the phone's page is sent", gateway.log()[-600:])
    check(fed(lambda: "from-the-phone.grb (kwbc): run" in gateway.log(), 20), "and imported")
    # The wind tiles say the wind is the forecast's.
    driver.execute_script("telltale.show(telltale.layouts().findIndex(l => l.name === 'Sailing'))")
    fed(lambda: driver.execute_script("return document.querySelector('.tile[data-id=tw]').classList.contains('forecast')"), 5)
    marked = driver.execute_script("""return ['aw', 'tw'].map(id => {
        const tile = document.querySelector('.tile[data-id=' + id + ']');
        return tile.classList.contains('forecast') && getComputedStyle(tile.querySelector('h3'), '::after').content; })""")
    check(all(m and "forecast" in m for m in marked), "the wind tiles are marked 'forecast'", str(marked))
    # The sky on the true wind tile (#42): the forecast's cloud at the boat now, in words and percent.
    status, body = get("/telltale/v1/weather")
    first = (json.loads(body).get("meteogram") or [{}])[0] if status == 200 else {}
    cloud = first.get("cloud")
    fed(lambda: "%" in driver.execute_script("return document.querySelector('.tile[data-id=tw] [data-q=sky]').textContent"), 35)
    sky = driver.execute_script("return document.querySelector('.tile[data-id=tw] [data-q=sky]').textContent")
    cloud = cloud if cloud is not None else -1.0
    speed = first.get("windSpeed") or 0
    words = ("windy" if speed >= 10.8 else "rain" if (first.get("precipitation") or 0) >= 0.5 else
             "clear" if cloud < 15 else "fair" if cloud < 45 else "cloudy" if cloud < 80 else "overcast")
    check(cloud >= 0 and sky == f"{words} {round(cloud)}%",
          f"the true wind tile says the sky from the forecast at the boat: '{sky}' ({cloud:.1f}% cloud)", sky)
    driver.set_window_size(360, 780)
    time.sleep(1.5)
    past = driver.execute_script("""const tile = document.querySelector('.tile[data-id=tw]'), box = tile.getBoundingClientRect();
        const out = [], walker = document.createTreeWalker(tile, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (!n.textContent.trim() || n.parentElement.closest('svg')) continue;
          const range = document.createRange(); range.selectNodeContents(n);
          for (const r of range.getClientRects())
            if (r.width > 0 && (r.right > box.right - 1 || r.bottom > box.bottom + 1)) out.push(n.textContent.trim());
        }
        return [out, window.innerWidth];""")
    check(not past[0] and past[1] <= 370, f"and it fits the tile on a {past[1]} px phone", past)
    driver.set_window_size(1100, 900)
    driver.save_screenshot(os.path.join(screenshots, "sailing-forecast-wind.png"))
finally:
    driver.quit()

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
