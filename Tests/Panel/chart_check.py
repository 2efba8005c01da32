"""The chart page in a real browser (Debian's chromium through selenium), against `telltale run` with an MBTiles
file this check makes, a route, a polar, a start line pinged at the bow, an AIS ship and an anchor.

    chart_check.py BINARY SCREENSHOT_DIR

Checks, each printed ok or FAIL, then `chart-check: N passed, M failed`:
- the charts folder's file is listed and its tiles are shown: a tile drawn in the browser has the colour this check
  painted for that tile (each tile is a flat colour from its x and y, so a tile in the wrong place shows);
- the boat symbol lands on the pixel its position should at zoom 15, within 2 px: the pixel worked out here from the
  Web Mercator formula and the place of the tile that holds it, not from Leaflet;
- the track, the route (its named waypoints), the laylines, the start line, the AIS ship and the anchor's circle
  are drawn;
- a drag pans the chart and stops following (the layout stays, Follow shows); Follow restores it (the boat back at
  the middle);
- screenshots in day, night and red at phone size and day at tablet size.
"""
import json
import math
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ais_class_b, chart_settings, Checks, free_port, Gateway, make_mbtiles, nmea_position, sentence, wait_for  # noqa: E402

from browser import chromium  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from chart_anchor import anchor_dialog  # noqa: E402
from chart_search import search  # noqa: E402

binary, shots = sys.argv[1], sys.argv[2]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.makedirs(shots, exist_ok=True)
check = Checks("chart-check")
work = tempfile.mkdtemp()


# ---- The chart file: a flat colour per tile, from its x and y -----------------------------------------------------

def colour(z, x, y):
    return (40 + (x * 53 + z * 7) % 200, 40 + (y * 91 + z * 13) % 200, 120 + ((x + y) % 2) * 100)


def png(rgb):
    raw = b"".join(b"\x00" + bytes(rgb) * 256 for _ in range(256))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 256, 256, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def world(lat, lon, z):
    """Web Mercator pixel of a position at zoom z (256-pixel tiles)."""
    n = 256 * 2 ** z
    x = (lon + 180) / 360 * n
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n
    return x, y


BOAT = (50.7795, -1.3030)
charts = os.path.join(work, "charts")
os.mkdir(charts)
make_mbtiles(
    os.path.join(charts, "pattern.mbtiles"),
    [("name", "Pattern chart"), ("format", "png"), ("minzoom", "12"), ("maxzoom", "16"),
     ("bounds", "-1.40,50.72,-1.20,50.84"), ("type", "baselayer")],
    [(z, x, y, png(colour(z, x, y))) for z in range(12, 17)
     for cx, cy in [tuple(int(v // 256) for v in world(*BOAT, z))]
     for x in range(cx - 4, cx + 5) for y in range(cy - 5, cy + 6)])

# ---- The gateway and its instruments ---------------------------------------------------------------------------

web, udp = free_port(), free_port(socket.SOCK_DGRAM)
config = f"""status_line = false
state_file = "{work}/state.toml"
route = "{root}/Fixtures/demo-voyage/route.gpx"
polar = "{root}/Fixtures/demo-voyage/polar.csv"
[[input]]
name = "bus"
url = "udp://127.0.0.1:{udp}"
[alarms]
xte = 0.05
""" + chart_settings(charts, web)
gateway = Gateway(binary, config, work=work).start(wait=[web])
here = list(BOAT)
sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
running = [True]






def instruments():
    second = 0
    while running[0]:
        stamp = time.strftime("%H%M%S", time.gmtime())
        lat, lon = here
        lines = [
            sentence(f"GPRMC,{stamp}.00,A,{nmea_position(lat, 'NS')},{nmea_position(lon, 'EW')},5.0,100.0,251126,,,A"),
            sentence("HEHDT,100.0,T"), sentence("WIMWV,40.0,R,14.0,N,A"), sentence("VWVHW,,T,,M,5.0,N,,K"),
            sentence("SDDPT,8.0,0.0"),
        ]
        if second % 5 == 0:
            lines.append(ais_class_b(235011122, "CHART SHIP", 50.7840, -1.2960, 6.0, 200.0))
        for line in lines:
            try:
                sender.sendto(line, ("127.0.0.1", udp))
            except OSError:
                pass
        second += 1
        time.sleep(1)


threading.Thread(target=instruments, daemon=True).start()


def telltale(*words):
    return subprocess.run([binary, *words, "--port", str(web)], capture_output=True, text=True, timeout=10)


# A short track (east in 40 m steps), the start line's ends pinged at the bow, then the boat settled.
wait_for(lambda: telltale("race", "sync").returncode in (0, 1), 5)
for step in range(8):
    here[1] = BOAT[1] - 0.0040 + step * 0.0006
    time.sleep(1.2)
    if step == 2:
        telltale("race", "port")
    if step == 6:
        telltale("race", "starboard")
here[0], here[1] = BOAT
time.sleep(2)
dropped = telltale("anchor", "drop", "60")
check(dropped.returncode == 0, "the anchor dropped from the command line", dropped.stdout + dropped.stderr)

# ---- The browser ------------------------------------------------------------------------------------------------

driver = chromium(1024, 900, scrollbars=False, srgb=True)


def viewport(width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 2})


def drag(from_x, from_y, to_x, to_y):
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to_location(from_x, from_y).pointer_down()
    for step in range(1, 8):
        actions.pointer_action.move_to_location(int(from_x + (to_x - from_x) * step / 7),
                                                int(from_y + (to_y - from_y) * step / 7))
    actions.pointer_action.pointer_up()
    actions.perform()


def js(script, *args):
    return driver.execute_script(script, *args)


try:
    viewport(390, 844)
    driver.get(f"http://127.0.0.1:{web}/")
    shown = wait_for(lambda: js("return !!(window.telltaleChart && window.telltaleChart.map && "
                                "window.telltaleChart.boat)"), 15)
    check(shown and driver.find_element(By.ID, "layout-name").text == "Chart",
          "a phone with no layout chosen opens on the chart ([panel] start)")
    listing = json.loads(js("return JSON.stringify(window.telltaleChart.info)") or "{}")
    check([c.get("name") for c in listing.get("charts", [])] == ["pattern"] and listing.get("baseLayer") is None,
          "the charts folder's file listed, no online layer when none is configured", str(listing))
    js("window.telltaleChart.map.setZoom(15, {animate: false})")
    time.sleep(3)

    # Tiles: each one drawn in a canvas, its middle pixel against the colour painted for its z, x, y.
    tiles = js("""
        return Array.from(document.querySelectorAll('img.leaflet-tile-loaded')).filter(i => i.src.includes('/charts/'))
          .map(i => { const c = document.createElement('canvas'); c.width = 256; c.height = 256;
            const g = c.getContext('2d'); g.drawImage(i, 0, 0); const d = g.getImageData(128, 128, 1, 1).data;
            const r = i.getBoundingClientRect();
            return [i.src.split('/charts/')[1], [d[0], d[1], d[2]], [r.left, r.top, r.width]]; });""")
    right = [t for t in tiles if tuple(t[1]) == colour(*map(int, t[0].split("/")[1:4]))]
    check(len(tiles) >= 4 and len(right) == len(tiles),
          f"the MBTiles tiles are shown, each with its own colour ({len(right)} of {len(tiles)})", str(tiles[:3]))

    # The boat: its icon's middle against the Web Mercator pixel of the position sent, placed by its tile.
    wx, wy = world(BOAT[0], BOAT[1], 15)
    tx, ty = int(wx // 256), int(wy // 256)
    holder = next((t for t in tiles if t[0] == f"pattern/15/{tx}/{ty}"), None)
    boat = js("const r = window.telltaleChart.boat.getElement().getBoundingClientRect();"
              "return [r.left + r.width / 2, r.top + r.height / 2];")
    if holder:
        expected = (holder[2][0] + wx - tx * 256, holder[2][1] + wy - ty * 256)
        error = math.hypot(boat[0] - expected[0], boat[1] - expected[1])
        check(error <= 2, f"the boat symbol on its pixel at zoom 15: {error:.2f} px off", f"{boat} {expected}")
    else:
        check(False, "the boat symbol on its pixel at zoom 15: the tile under it was not shown", str(tiles))

    turned = js("const m = getComputedStyle(window.telltaleChart.boat.getElement().querySelector('svg')).transform"
                ".match(/matrix\\(([^,]+), ([^,]+)/); return m ? Math.atan2(+m[2], +m[1]) * 180 / Math.PI : null")
    check(turned is not None and abs(((turned - 100 + 180) % 360) - 180) < 1,
          f"the boat symbol turned to its heading, 100 deg ({turned})")

    def drawn(selector):
        return js(f"return Array.from(document.querySelectorAll('{selector}'))"
                  ".filter(p => (p.getAttribute('d') || '').length > 8).length")
    check(wait_for(lambda: drawn("path.chart-track") >= 1, 10), "the track is drawn")
    check(wait_for(lambda: drawn("path.chart-route") >= 1, 10), "the route is drawn")
    names = js("return Array.from(document.querySelectorAll('.chart-label')).map(e => e.textContent)")
    check({"START", "EAST"} <= set(names), "its waypoints named", str(names))
    # The laylines run from the next mark (EAST) back along the two tacks: at zoom 15 they may be off the screen.
    def laylines():
        return js("return telltaleChart.layers.laylines.getLayers().map(l => l.getLatLngs().map(p => [p.lat, p.lng]))")
    check(wait_for(lambda: len(laylines()) == 2 and all(abs(line[0][0] - 50.7733) < 1e-6 and abs(line[0][1] + 1.2833) < 1e-6
                                                       for line in laylines()), 10),
          "the two laylines drawn from the next mark", str(laylines()))
    check(wait_for(lambda: drawn("path.chart-startline") == 1, 10), "the start line is drawn")
    check(wait_for(lambda: drawn("path.chart-corridor") == 1, 10), "the XTE corridor is drawn")
    check(wait_for(lambda: drawn("path.chart-anchor") == 1, 10), "the anchor's circle is drawn")
    check(wait_for(lambda: "CHART SHIP" in js("return Array.from(document.querySelectorAll('.chart-label'))"
                                              ".map(e => e.textContent).join()"), 15), "the AIS ship drawn with its name")
    for theme in ["day", "night", "red"]:
        js(f"telltale.theme('{theme}')")
        time.sleep(1)
        driver.save_screenshot(os.path.join(shots, f"chart-{theme}-phone.png"))
    js("telltale.theme('day')")

    # A drag pans and stops following; Follow brings the boat back to the middle.
    size = js("const r = document.querySelector('#chart').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
    middle = (size[0] + size[2] / 2, size[1] + size[3] / 2)
    drag(int(middle[0]), int(middle[1]), int(middle[0] - 120), int(middle[1] + 80))
    time.sleep(2.5)
    follow = driver.find_element(By.ID, "chart-follow")
    moved = js("const c = window.telltaleChart, p = c.map.latLngToContainerPoint(c.boat.getLatLng()),"
               "s = c.map.getSize(); return Math.hypot(p.x - s.x / 2, p.y - s.y / 2)")
    check(follow.is_displayed() and driver.find_element(By.ID, "layout-name").text == "Chart" and moved > 50,
          f"a drag pans the chart ({moved:.0f} px) and stops following; the layout stays")
    follow.click()
    time.sleep(2)
    back = js("const c = window.telltaleChart, p = c.map.latLngToContainerPoint(c.boat.getLatLng()),"
              "s = c.map.getSize(); return Math.hypot(p.x - s.x / 2, p.y - s.y / 2)")
    check(not follow.is_displayed() and back < 2, f"Follow restores following: the boat {back:.1f} px from the middle")

    # Head up: the map turns under the boat (heading 100: the boat's symbol points up the screen), Leaflet's own
    # controls stay upright inside the chart, and North up turns it back.
    driver.find_element(By.ID, "chart-up").click()
    time.sleep(2)
    upright = js("""const chart = document.querySelector('#chart').getBoundingClientRect();
        const inside = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.left >= chart.left - 1 &&
          r.right <= chart.right + 1 && r.top >= chart.top - 1 && r.bottom <= chart.bottom + 1; };
        const zoom = document.querySelector('.leaflet-control-zoom'), layers = document.querySelector('.leaflet-control-layers');
        const svg = window.telltaleChart.boat.getElement().querySelector('svg');
        const m = new DOMMatrix(getComputedStyle(svg).transform);
        const map = new DOMMatrix(getComputedStyle(document.querySelector('.chart-map')).transform);
        const screen = Math.atan2(map.b, map.a) + Math.atan2(m.b, m.a);
        return [inside(zoom), inside(layers), Math.round(screen * 180 / Math.PI)];""")
    check(upright[0] and upright[1] and abs(((upright[2] + 180) % 360) - 180) <= 1,
          f"head up: the boat points up the screen ({upright[2]} deg), zoom and layers stay on the chart", str(upright))
    driver.find_element(By.ID, "chart-up").click()
    time.sleep(1)

    anchor_dialog(check, driver, js, web)
    search(check, driver, js, root, shots, viewport)
finally:
    running[0] = False
    driver.quit()
    gateway.stop()
check.finish()
