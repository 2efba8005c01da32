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
import os
import re
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ais_class_b, bench_profile, Checks, free_port, Gateway, OutputReader  # noqa: E402

from browser import chromium  # noqa: E402
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from panel_access import access  # noqa: E402
from panel_fit import screenshots_and_fit  # noqa: E402
from panel_numbers import Reading, numbers_against_output  # noqa: E402
from panel_gestures import gestures  # noqa: E402
from panel_live import live_and_stale  # noqa: E402

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

    reading = Reading(text, value, seen)
    numbers_against_output(check, reading, held, mwv, sentence, swipe, wait, xdr)
    gestures(check, reading.compare, double_tap, driver, sentence, swipe, text, unit, wait)
    live_and_stale(check, driver, gateway, start, text, value, wait, wind_feed)
    access(binary, check, driver, url, wait)
    screenshots_and_fit(check, driver, shots, viewport, wait)
    # While the gateway was down the browser logged its refused connections; nothing else may be there.
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "Uncaught" in e["message"]]
    check(not errors, "no script errors in the browser's console", str(errors[:3]))
finally:
    driver.quit()
    bench.stop()

checks.finish()
