"""The instrument panel in a real browser: Debian's chromium, headless, driven by selenium, against `telltale run` on
the bench profile (its IMU, route, output and web server), with the demo voyage's sentences fed by this script on two
TCP inputs, `wind` and `boat`, so that the wind can be stopped on its own.

    panel_check.py BINARY SCREENSHOT_DIR

Checks, each printed ok or FAIL, then `panel-check: N passed, M failed`:
- the page loads from the binary alone and shows live values;
- the numbers on the apparent wind, true wind, boat speed, heading, heel and depth tiles equal the values in the
  gateway's NMEA output at the same moment, within the display's resolution and the sentence's own (the output is read
  beside the page the whole time; the page must fall within what the output said over the moment around it);
- a swipe (touch) to every layout, with the layout's name and dot shown; on the chart a drag pans (the layout stays,
  Follow shows) and Follow restores following;
- a unit changed by a double tap on a tile, kept across a reload, and the number converted;
- the wind stopped: the tile greyed or blanked within its 5 s timeout, never left looking current;
- the AIS tile lists a boat heard on AIS (a class B report in the feed) by name, range and bearing;
- a page opened late draws the speed and depth sparklines at once from the server's last minutes;
- the gateway killed: the disconnected state shown at once; restarted: values again;
- access, on a gateway that trusts no browser's network: a tablet's panel is read only and says so, asks for access;
  a phone asks as admin and is approved by the Pi; the phone's panel approves the tablet, whose race button then
  works; revoked from the phone, the tablet is read only again; the settings page opens for the admin phone alone;
- screenshots of every layout in day and night at phone and tablet sizes.
"""
import http.client
import json
import os
import re
import signal
import socket
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ais_class_b, bench_profile, Checks, free_port, Gateway, OutputReader  # noqa: E402

from browser import chromium  # noqa: E402
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

binary, shots = sys.argv[1], sys.argv[2]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.makedirs(shots, exist_ok=True)
checks = Checks("panel-check")


def check(ok, what, detail=""):
    checks(ok, what, detail)



# ---- The feed: the demo voyage, a second's sentences at a time, then held on one second's values ----------------

seconds = []
with open(os.path.join(root, "Fixtures/demo-voyage/voyage.nmea"), "rb") as f:
    for line in f:
        if line.startswith(b"$GPRMC") or not seconds:
            seconds.append([])
        seconds[-1].append(line.rstrip(b"\r\n") + b"\r\n")




# A sailing boat on AIS, moored 0.6 NM north-east of the demo route's start: reported every 10 s.
SHIP = ais_class_b(235098765, "SEA SPRITE", 50.7880, -1.2880, 0.0, 0.0)
for index, second in enumerate(seconds):
    if index % 10 == 0:
        second.append(SHIP)


def is_wind(line):
    return line[3:6] in (b"MWV", b"VWR", b"MWD")


class Feed:
    """One TCP input of the gateway (it connects to us): sends its share of each second, over and over."""

    def __init__(self, wind):
        self.wind = wind
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        self.port = self.server.getsockname()[1]
        self.sending = True
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        while True:
            connection, _ = self.server.accept()
            try:
                while True:
                    if self.sending:
                        # The voyage's first minute, then its 60th second held: values that stay put while compared.
                        second = seconds[min(held.index, len(seconds) - 1)]
                        lines = [line for line in second if is_wind(line) == self.wind]
                        connection.sendall(b"".join(lines))
                    time.sleep(1)
            except OSError:
                connection.close()


class Held:
    index = 0


held = Held()


def advance():
    while held.index < 60:
        time.sleep(1)
        held.index += 1


# ---- The gateway's NMEA output, read the whole time (an OutputReader, from when the gateway starts) -------------


def seen(since, until, pick):
    """Values `pick(fields)` returns (None skips) for output sentences in the time window."""
    values = []
    for at, text in output.lines():
        if not (text.startswith("$") and "*" in text):
            continue
        fields = text[1:text.index("*")].split(",")
        if since <= at <= until:
            value = pick(fields)
            if value is not None:
                values.append(value)
    return values


def field(fields, i):
    try:
        return float(fields[i])
    except (IndexError, ValueError):
        return None


def mwv(reference, talker, part):
    def pick(f):
        if f[0][2:] != "MWV" or len(f) < 6 or f[2] != reference or f[5] != "A" or not f[0].startswith(talker):
            return None
        if part == "angle":
            return field(f, 1)
        speed = field(f, 3)
        factor = {"N": 1, "M": 3600 / 1852, "K": 1 / 1.852}.get(f[4])
        return None if speed is None or factor is None else speed * factor
    return pick


def sentence(kind, index, talker=""):
    def pick(f):
        if f[0][2:] != kind or not f[0].startswith(talker):
            return None
        return field(f, index)
    return pick


def xdr(name):
    def pick(f):
        if f[0][2:] != "XDR" or not f[0].startswith("II"):
            return None
        for i in range(0, len(f) - 4, 4):
            if f[i + 4] == name:
                return field(f, i + 2)
        return None
    return pick


# ---- The gateway -----------------------------------------------------------------------------------------------

wind_feed, boat_feed = Feed(True), Feed(False)
nmea_port, web_port = free_port(), free_port()
profile = bench_profile(nmea_port, web_port)
inputs = (f'[[input]]\nname = "wind"\nurl = "tcp://127.0.0.1:{wind_feed.port}"\n\n'
          f'[[input]]\nname = "boat"\nurl = "tcp://127.0.0.1:{boat_feed.port}"\n')
profile = re.sub(r'\[\[input\]\]\nname = "demo-voyage"\nurl = "[^"]*"\nloop = true\n', inputs, profile)
assert 'name = "wind"' in profile, "the bench profile's input section changed: update this check"
bench = Gateway(binary, profile, work=shots)


def start():
    bench.start(wait=[web_port])
    return bench.process


gateway = start()
output = OutputReader(nmea_port, reconnect=True)
threading.Thread(target=advance, daemon=True).start()

driver = chromium(1024, 900, scrollbars=False, srgb=True)
url = f"http://127.0.0.1:{web_port}/"


def viewport(width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 2})


def value(tile, q):
    return driver.find_element(By.CSS_SELECTOR, f'.tile[data-id="{tile}"] .v[data-q="{q}"]')


def text(tile, q):
    return value(tile, q).text.strip()


def unit(tile, q):
    return driver.find_element(By.CSS_SELECTOR, f'.tile[data-id="{tile}"] [data-u="{q}"]').text.strip()


def wait(predicate, seconds, step=0.1):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except Exception:
            pass
        time.sleep(step)
    return False


def double_tap(x, y):
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to_location(x, y).pointer_down().pause(0.05).pointer_up().pause(0.1)
    actions.pointer_action.pointer_down().pause(0.05).pointer_up()
    actions.perform()


def swipe(from_x, to_x, y):
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to_location(from_x, y).pointer_down()
    for step in range(1, 6):
        actions.pointer_action.move_to_location(int(from_x + (to_x - from_x) * step / 5), y)
    actions.pointer_action.pointer_up()
    actions.perform()


try:
    viewport(390, 844)
    driver.get(url)
    driver.execute_script("localStorage.clear()")
    driver.get(url)
    live = wait(lambda: driver.find_element(By.ID, "connection").text == "live" and text("aw", "aws") != "—", 20)
    check(live, "the page loads from the gateway and shows live values")
    check(driver.find_element(By.ID, "layout-name").text == "Sailing", "the first layout is Sailing")
    transferred = driver.execute_script(
        "return performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))"
        ".reduce((s, e) => s + (e.transferSize || 0), 0)")
    check(0 < transferred < 150 * 1024, f"the page, everything in it, is under 150 KB ({transferred} bytes)")
    # Nothing fetched from anywhere but the gateway.
    origins = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => new URL(e.name).origin)")
    check(all(o == f"http://127.0.0.1:{web_port}" for o in origins), "no file from the network", str(origins))

    # ---- The numbers against the NMEA output, once the feed holds still ----
    wait(lambda: held.index >= 60, 90, 0.5)
    time.sleep(8)  # the engine's damping settles on the held values

    def compare(tile, q, pick, resolution, sentence_resolution, convert=lambda x: x, angle=False, signed=False):
        """The tile's number must fall within what the output said around the moment it was read."""
        last = ""
        for _ in range(6):
            at = time.monotonic()
            shown = text(tile, q)
            side = value(tile, q).get_attribute("class")
            time.sleep(1.2)
            values = [convert(v) for v in seen(at - 3, at + 1, pick)]
            if not values or shown in ("", "—"):
                last = f"shown {shown!r}, output {values}"
                continue
            number = float(shown.replace("−", "-"))
            if signed:
                number = -number if "port" in side else number
                values = [v - 360 if v > 180 else v for v in values]
            tolerance = resolution / 2 + sentence_resolution / 2 + 1e-6
            if angle:
                ok = any(abs((number - v + 180) % 360 - 180) <= tolerance for v in values)
            else:
                ok = min(values) - tolerance <= number <= max(values) + tolerance
            if ok:
                return True, f"{shown} vs {sorted(set(round(v, 3) for v in values))}"
            last = f"shown {shown} ({side}), output {sorted(set(round(v, 3) for v in values))}"
        return False, last

    computed = seen(0, time.monotonic(), mwv("R", "II", "speed"))
    aw_talker = "II" if computed else "WI"
    for tile, q, pick, resolution, sentence_resolution, kwargs, what in [
        ("aw", "aws", mwv("R", aw_talker, "speed"), 0.1, 0.1, {}, "apparent wind speed (kn)"),
        ("aw", "awa", mwv("R", aw_talker, "angle"), 1, 0.1, {"signed": True}, "apparent wind angle, side by colour"),
        ("tw", "tws", mwv("T", "II", "speed"), 0.1, 0.1, {}, "true wind speed (kn)"),
        ("tw", "twa", mwv("T", "II", "angle"), 1, 0.1, {"signed": True}, "true wind angle"),
        ("tw", "twd", sentence("MWD", 1, "II"), 1, 0.1, {"angle": True}, "true wind direction"),
        ("speed", "stw", sentence("VHW", 5), 0.01, 0.01, {}, "boat speed through the water (kn)"),
        ("speed", "sog", sentence("RMC", 7), 0.01, 0.01, {}, "speed over ground (kn)"),
        ("heading", "hdg", sentence("HDT", 1, "II"), 1, 0.1, {"angle": True}, "heading true"),
        ("heel", "heel", xdr("ROLL"), 1, 0.1, {"convert": abs}, "heel (degrees, side by colour)"),
        ("depth", "depth", sentence("DPT", 1), 0.1, 0.1, {}, "depth below the transducer (m)"),
    ]:
        ok, detail = compare(tile, q, pick, resolution, sentence_resolution, **kwargs)
        check(ok, f"tile {tile}: {what} equals the NMEA output", detail)

    # The racing layout (a swipe left): the polar tile against the XDR the gateway computes from the same polar.
    swipe(330, 60, 450)
    time.sleep(1)
    for tile, q, pick, resolution, sentence_resolution, kwargs, what in [
        ("polar", "pct", xdr("POLPCT"), 1, 1, {}, "polar percentage"),
        ("polar", "tgttwa", xdr("TGTTWA"), 1, 0.1, {"angle": True}, "target true wind angle"),
    ]:
        ok, detail = compare(tile, q, pick, resolution, sentence_resolution, **kwargs)
        check(ok, f"tile {tile}: {what} equals the NMEA output", detail)
    swipe(60, 330, 450)
    time.sleep(1)

    # ---- Swipes ----
    names = []
    panned = None
    expected = ["Racing", "Navigation", "Motion", "Chart", "Weather", "History", "Autopilot", "Sailing"]
    for _ in range(len(expected)):
        on_chart = driver.find_element(By.ID, "layout-name").text == "Chart"
        if on_chart:
            # A drag on the chart pans it (following stops, the button shows) and does not change the layout.
            time.sleep(2)
            swipe(330, 60, 450)
            time.sleep(0.5)
            follow = driver.find_elements(By.ID, "chart-follow")
            panned = (driver.find_element(By.ID, "layout-name").text, bool(follow) and follow[0].is_displayed())
            if follow and follow[0].is_displayed():
                follow[0].click()
                time.sleep(0.5)
                panned += (not follow[0].is_displayed(),)
        # Swipes on the chart's page are taken from its instrument strip.
        swipe(330, 60, 760 if on_chart else 450)
        time.sleep(0.3)
        toast = driver.find_element(By.ID, "toast")
        names.append((driver.find_element(By.ID, "layout-name").text, toast.is_displayed() and toast.text,
                      len(driver.find_elements(By.CSS_SELECTOR, "#dots span.on"))))
        time.sleep(1)
    check([n[0] for n in names] == expected, "a swipe left goes to every layout in turn and back to the first",
          str(names))
    check(all(n[1] and n[0] in n[1] and n[2] == 1 for n in names),
          "each switch shows the layout's name and one dot lit", str(names))
    check(panned == ("Chart", True, True),
          "on the chart a drag pans it (the layout stays, Follow shows) and Follow restores following", str(panned))
    swipe(60, 330, 450)
    time.sleep(0.3)
    check(driver.find_element(By.ID, "layout-name").text == "Autopilot", "a swipe right goes back")
    swipe(330, 60, 760)
    time.sleep(1)

    # ---- A unit changed with a double tap, kept across a reload ----
    tile = driver.find_element(By.CSS_SELECTOR, '.tile[data-id="speed"]')
    rect = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + 20]",
                                 tile)
    double_tap(int(rect[0]), int(rect[1]))
    opened = wait(lambda: driver.find_element(By.ID, "settings").get_attribute("open") is not None, 3)
    check(opened, "a double tap opens the instrument's settings")
    if opened:
        Select(driver.find_element(By.CSS_SELECTOR, '#settings select[name="unit"]')).select_by_value("km/h")
        driver.find_element(By.ID, "settings-save").click()
        time.sleep(0.5)
    driver.refresh()
    wait(lambda: text("speed", "stw") != "—", 10)
    check(unit("speed", "stw") == "km/h", "the unit is kept across a reload", unit("speed", "stw"))
    ok, detail = compare("speed", "stw", sentence("VHW", 5), 0.01, 0.01, convert=lambda k: k * 1.852)
    check(ok, "boat speed in km/h equals the output's knots times 1.852", detail)
    check(unit("tw", "tws") == "kn", "units are per instrument: true wind still in knots")

    # ---- The layout editor: a layout of the user's own, after the presets, kept in the browser ----
    driver.find_element(By.ID, "menu-button").click()
    driver.find_element(By.ID, "edit-layouts").click()
    driver.find_element(By.ID, "editor-new").click()
    name = driver.find_element(By.ID, "editor-name")
    name.clear()
    name.send_keys("Foredeck")
    Select(driver.find_element(By.ID, "editor-add")).select_by_value("depth")
    driver.find_element(By.ID, "editor-add-button").click()
    driver.find_element(By.ID, "editor-save").click()
    time.sleep(0.5)
    driver.refresh()
    wait(lambda: text("aw", "aws") != "—", 10)
    tiles = [t.get_attribute("data-id") for t in driver.find_elements(By.CSS_SELECTOR, ".tile")]
    check(driver.find_element(By.ID, "layout-name").text == "Foredeck" and tiles == ["aw", "speed", "depth"],
          "the layout editor saves a layout of the user's own, kept across a reload", str(tiles))
    check(len(driver.find_elements(By.CSS_SELECTOR, "#dots span")) == 9, "nine layouts: eight presets and the user's")

    # ---- The wind stopped: stale within its timeout ----
    wind_feed.sending = False
    stopped = time.monotonic()
    greyed = wait(lambda: "stale" in value("aw", "aws").get_attribute("class") or text("aw", "aws") == "—", 12, 0.05)
    grey_after = time.monotonic() - stopped
    check(greyed and grey_after <= 5 + 1.5,
          f"wind stopped: the apparent wind greyed or blanked after {grey_after:.1f} s (timeout 5 s)")
    blanked = wait(lambda: text("aw", "aws") == "—", 12, 0.1)
    check(blanked and time.monotonic() - stopped <= 10 + 1.5,
          f"and blanked after {time.monotonic() - stopped:.1f} s, never shown as current")
    check(text("speed", "stw") != "—" and "stale" not in value("speed", "stw").get_attribute("class"),
          "the other inputs' tiles stay current")
    wind_feed.sending = True
    check(wait(lambda: text("aw", "aws") != "—" and "stale" not in value("aw", "aws").get_attribute("class"), 10),
          "the wind back: the tile live again")

    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    check(not errors, "no errors in the browser's console while connected", str(errors[:3]))

    # ---- AIS: a layout of the user's own with the traffic tile ----
    driver.execute_script("localStorage.setItem('telltale.layouts', JSON.stringify([{name: 'Traffic', tiles: ['ais']}]));"
                          "localStorage.setItem('telltale.layout', "
                          "String(window.telltale.layouts().findIndex(l => l.name === 'Traffic')))")
    driver.refresh()

    def traffic_rows():
        return [[td.text for td in row.find_elements(By.TAG_NAME, "td")]
                for row in driver.find_elements(By.CSS_SELECTOR, "table.traffic tbody tr")]

    listed = wait(lambda: any(r and r[0] == "SEA SPRITE" for r in traffic_rows()), 20, 0.2)
    rows = traffic_rows()
    row = next((r for r in rows if r and r[0] == "SEA SPRITE"), None)
    check(listed and row is not None and 0.05 < float(row[1]) < 3 and len(row[2]) == 3,
          f"the AIS tile lists the moored boat by name with its range and bearing ({row})", str(rows))
    driver.execute_script("localStorage.removeItem('telltale.layouts')")

    # ---- A phone that joins late: the sparklines drawn at once from the server's last minutes ----
    driver.execute_script("localStorage.setItem('telltale.layout', '0')")
    driver.refresh()

    def sparkline_points(name):
        line = driver.find_element(By.CSS_SELECTOR, f"polyline.{name}")
        return len((line.get_attribute("points") or "").split())

    drawn = wait(lambda: sparkline_points("stw") >= 30 and sparkline_points("depth") >= 30, 3, 0.1)
    check(drawn, f"a page opened late draws the boat speed and depth sparklines at once from the server "
                 f"({sparkline_points('stw')}, {sparkline_points('depth')} points within 3 s)")

    # ---- The gateway killed and restarted ----
    gateway.send_signal(signal.SIGKILL)
    gateway.wait()
    killed = time.monotonic()
    down = wait(lambda: "down" in driver.find_element(By.ID, "connection").get_attribute("class"), 5, 0.05)
    check(down and time.monotonic() - killed < 2,
          f"gateway killed: disconnected shown after {time.monotonic() - killed:.2f} s")
    check(wait(lambda: text("aw", "aws") == "—" or "stale" in value("aw", "aws").get_attribute("class"), 2),
          "no value shown as current while disconnected")
    gateway = start()
    back = wait(lambda: driver.find_element(By.ID, "connection").text == "live" and text("aw", "aws") != "—"
                and "stale" not in value("aw", "aws").get_attribute("class"), 20)
    check(back, "restarted: the page reconnects by itself and shows values again")

    # ---- Access: a gateway that trusts no browser; a tablet asks, the Pi approves a phone, the phone the tablet ----
    access_nmea, access_web = free_port(), free_port()
    strict = bench_profile(access_nmea, access_web).replace("[web]\n", '[web]\nput_networks = ["127.0.0.2/32"]\n', 1)
    assert 'put_networks = ["127.0.0.2/32"]' in strict
    strict_gateway = Gateway(binary, strict, work=tempfile.mkdtemp(), name="access").start(wait=[access_web])
    tablet = f"http://127.0.0.1:{access_web}/"  # one origin, its own storage: the crew's tablet
    phone = f"http://localhost:{access_web}/"  # another: the skipper's phone

    def on_the_pi(method, path, body=None):
        """The Pi itself (the one address put_networks trusts), as `telltale access` is."""
        connection = http.client.HTTPConnection("127.0.0.1", access_web, timeout=5, source_address=("127.0.0.2", 0))
        connection.request(method, path, body=body)
        response = connection.getresponse()
        answer = response.status, response.read().decode()
        connection.close()
        return answer

    def race_running():
        return on_the_pi("GET", "/signalk/v1/api/vessels/self/navigation/racing/timeToStart")[0] == 200

    def toast_says(words, seconds=5):
        return wait(lambda: words in driver.find_element(By.ID, "toast").text, seconds, 0.05)

    def fresh(url, layout):
        driver.get(url)
        driver.execute_script(f"localStorage.clear(); localStorage.setItem('telltale.layout', '{layout}')")
        driver.get(url)
        return wait(lambda: driver.find_element(By.ID, "connection").text == "live", 15)

    def access_state():
        return driver.find_element(By.ID, "access-state").text

    def menu():
        if not driver.find_element(By.ID, "menu").get_attribute("open"):
            driver.find_element(By.ID, "menu-button").click()

    def ask(name, admin):
        menu()
        wait(lambda: driver.find_element(By.ID, "access-request").is_displayed(), 5)
        field = driver.find_element(By.ID, "access-name")
        field.clear()
        field.send_keys(name)
        if admin:
            driver.find_element(By.ID, "access-admin").click()
        driver.find_element(By.ID, "access-request").click()
        return wait(lambda: access_state().startswith("Waiting for approval"), 5)

    def press(button):
        if driver.find_element(By.ID, "menu").get_attribute("open"):
            driver.find_element(By.ID, "menu-close").click()
        driver.find_element(By.CSS_SELECTOR, f'button[data-race="{button}"]').click()

    check(fresh(tablet, 1), "access: the tablet's panel is live on a gateway that trusts no browser")
    press("start")
    check(toast_says("Read only") and not race_running(),
          "the tablet's race button, unapproved: the panel says read only, and the timer does not start")
    menu()
    check(wait(lambda: access_state().startswith("Read only"), 5), f"its menu says read only ({access_state()!r})")
    check(ask("Crew tablet", admin=False), f"it asks for access and waits ({access_state()!r})")
    check(fresh(phone, 1) and ask("Skipper", admin=True), "the skipper's phone asks for access as admin")
    status, listing = on_the_pi("GET", "/telltale/v1/access")
    waiting = {r["description"]: r for r in json.loads(listing).get("requests", []) if r["state"] == "pending"} \
        if status == 200 else {}
    check(set(waiting) == {"Crew tablet", "Skipper"} and waiting["Skipper"]["permissions"] == "admin"
          and waiting["Crew tablet"]["permissions"] == "readwrite", "the Pi lists both requests", listing[:400])
    status, _ = on_the_pi("PUT", "/telltale/v1/access/requests/" + waiting.get("Skipper", {}).get("requestId", "x"),
                          json.dumps({"value": "approve"}))
    check(status == 200, "the Pi approves the phone")
    approved = wait(lambda: access_state().startswith("Approved as \u201cSkipper\u201d"), 10)
    check(approved, f"the phone's panel sees itself approved within 10 s ({access_state()!r})")
    row = None
    if wait(lambda: "Crew tablet" in driver.find_element(By.ID, "access-list").text, 10):
        row = [d for d in driver.find_elements(By.CSS_SELECTOR, "#access-list div") if "Crew tablet" in d.text]
    check(bool(row), "the phone's panel lists the tablet's request",
          driver.find_element(By.ID, "access-list").text)
    if row:
        [b for b in row[0].find_elements(By.TAG_NAME, "button") if b.text == "Approve"][0].click()
    check(toast_says("approved"), "and approves it from there")
    driver.get(tablet)
    check(wait(lambda: driver.find_element(By.ID, "connection").text == "live", 15), "back on the tablet")
    menu()
    check(wait(lambda: access_state().startswith("Approved as \u201cCrew tablet\u201d"), 10),
          f"the tablet's panel has its token ({access_state()!r})")
    press("start")
    check(wait(race_running, 5), "its race button now starts the timer")
    driver.get(phone)
    menu()
    revoke = None
    if wait(lambda: "Crew tablet: readwrite" in driver.find_element(By.ID, "access-list").text, 10):
        revoke = [d for d in driver.find_elements(By.CSS_SELECTOR, "#access-list div") if "Crew tablet" in d.text]
    if revoke:
        [b for b in revoke[0].find_elements(By.TAG_NAME, "button") if b.text == "Revoke"][0].click()
    check(bool(revoke) and toast_says("revoked"), "the phone revokes the tablet")
    driver.get(phone + "settings.html")
    check(wait(lambda: "[web]" in driver.find_element(By.ID, "text").get_attribute("value"), 10),
          "the admin phone opens the gateway's settings")
    driver.get(tablet)
    wait(lambda: driver.find_element(By.ID, "connection").text == "live", 15)
    press("reset")
    check(toast_says("Read only") or toast_says("revoked"), "revoked: the tablet's reset is refused")
    forgotten = wait(lambda: driver.execute_script("return localStorage.getItem('telltale.token')") is None, 10)
    check(race_running() and forgotten, "the timer runs on, and the tablet has forgotten its token")
    driver.get(tablet + "settings.html")
    check(wait(lambda: "may not see or change" in driver.find_element(By.ID, "result").text, 10),
          "the tablet's settings page says it may not", driver.find_element(By.ID, "result").text)
    strict_gateway.stop()
    driver.get(url)

    # ---- Screenshots: every layout, day and night, phone and tablet ----
    driver.execute_script("localStorage.clear()")
    taken = 0
    for width, height, size in [(390, 844, "phone"), (1024, 768, "tablet")]:
        viewport(width, height)
        for theme in ["day", "night", "red"]:
            for index, layout in enumerate(["sailing", "racing", "navigation", "motion"]):
                if theme == "red" and (size == "tablet" or layout != "sailing"):
                    continue
                driver.execute_script(f"localStorage.setItem('telltale.theme', '\"{theme}\"');"
                                      f"localStorage.setItem('telltale.layout', '{index}')")
                driver.refresh()
                wait(lambda: driver.find_element(By.ID, "connection").text == "live", 10)
                time.sleep(2.5)
                driver.save_screenshot(os.path.join(shots, f"{layout}-{theme}-{size}.png"))
                taken += 1
    check(taken == 17, f"{taken} screenshots in {shots}")
    # ---- No text past its tile's edge (#42), nor cut inside it (#49): every layout at 360, 390 and 430 px upright and
    # on its side, each text's boxes (from the page's own layout) inside its tile and inside every box of it that hides
    # what overflows (a list that scrolls inside the tile: its box inside). A screenshot of each.
    driver.execute_script("localStorage.setItem('telltale.theme', '\"day\"')")
    driver.refresh()
    wait(lambda: driver.find_element(By.ID, "connection").text == "live", 10)
    clipped, looked = [], 0
    for width, height in [(360, 780), (390, 844), (430, 932), (844, 390)]:
        viewport(width, height)
        names = driver.execute_script("return telltale.layouts().map(l => l.name)")
        for index, name in enumerate(names):
            driver.execute_script(f"telltale.show({index})")
            time.sleep(0.8)
            looked += 1
            driver.save_screenshot(os.path.join(shots, f"fit-{name.lower()}-{width}x{height}.png"))
            clipped += [(width, name) + tuple(c) for c in driver.execute_script("""
                const out = [];
                for (const tile of document.querySelectorAll('.tile')) {
                  const box = tile.getBoundingClientRect();
                  if (box.width === 0) continue;
                  const walker = document.createTreeWalker(tile, NodeFilter.SHOW_TEXT);
                  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                    if (!n.textContent.trim() || n.parentElement.closest('svg, [hidden]')) continue;
                    const range = document.createRange();
                    range.selectNodeContents(n);
                    // A list that scrolls inside its tile (the marks ahead) may run below the tile's foot; its box may
                    // not, nor may any text run past a side.
                    let scroller = n.parentElement;
                    while (scroller !== tile && !/auto|scroll/.test(getComputedStyle(scroller).overflowY))
                      scroller = scroller.parentElement;
                    const foot = scroller !== tile ? scroller.getBoundingClientRect().bottom : null;
                    // Nor past the side of a box inside the tile that hides what overflows it (the numbers beside a
                    // graphic: "4.29 k" for 4.29 kn was cut there, inside the tile).
                    const clips = [];
                    for (let e = n.parentElement; e && e !== tile; e = e.parentElement)
                      if (/hidden|clip/.test(getComputedStyle(e).overflowX)) clips.push(e.getBoundingClientRect());
                    for (const r of range.getClientRects())
                      if (r.width > 0 && (r.right > box.right - 1 || r.left < box.left + 1 ||
                                          (foot === null ? r.bottom : foot) > box.bottom + 1 ||
                                          clips.some(c => r.right > c.right + 1 || r.left < c.left - 1)))
                        out.push([tile.dataset.id, n.textContent.trim().slice(0, 16)]);
                  }
                }
                return out;""")]
    check(looked >= 24 and not clipped, f"no text past its tile's edge or cut inside it in {looked} views: every "
          "layout at 360, 390 and 430 px upright and 844 x 390 on its side", clipped[:6])
    # While the gateway was down the browser logged its refused connections; nothing else may be there.
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "Uncaught" in e["message"]]
    check(not errors, "no script errors in the browser's console", str(errors[:3]))
finally:
    driver.quit()
    bench.stop()

checks.finish()
