"""The offline base map (#42) in a real browser: `telltale basemap` run on Debian's GSHHG files (gmt-gshhg-low, -high,
-full), then the chart at phone size with no chart file and no internet, looked at pixel by pixel.

    basemap_check.py BINARY SCREENSHOT_DIR [GSHHG_DIR]

Checks, each printed ok or FAIL, then `basemap-check: N passed, M failed`:
- the five resolutions made, none of their bins left out;
- the Solent at zoom 12 on a 390 px phone: land where the Isle of Wight's towns are, water in the Solent's roads,
  each pixel read from the tile the browser drew, at places whose land or sea is known (and agrees with the full
  resolution shoreline: every place is over 300 m from it); the same with the low resolution at zoom 5 (France,
  the Bay of Biscay, Ireland, the Irish Sea);
- the crude map at zoom 1 with land in each continent and water in each ocean;
- what a first view costs on the wire, and how long to its first paint;
- requests that are not the base map's: refused, and the gateway goes on.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import Checks, free_port, Gateway, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402

from browser import chromium  # noqa: E402

binary, shots = sys.argv[1], sys.argv[2]
gshhg = sys.argv[3] if len(sys.argv) > 3 else "/usr/share/gmt-gshhg"
os.makedirs(shots, exist_ok=True)
check = Checks("basemap-check")
work = tempfile.mkdtemp(prefix="telltale-basemap-")
folder = os.path.join(work, "basemap")

started = time.monotonic()
made = subprocess.run([binary, "basemap", "--gshhg", gshhg, "--output", folder], capture_output=True, text=True)
took = time.monotonic() - started
print(made.stdout.strip())
sizes = {letter: os.path.getsize(os.path.join(folder, f"basemap-{letter}.ttbm"))
         if os.path.exists(os.path.join(folder, f"basemap-{letter}.ttbm")) else 0 for letter in "clihf"}
check(made.returncode == 0 and all(sizes.values()) and "left out" not in made.stdout,
      f"telltale basemap makes the five resolutions from GSHHG in {took:.1f} s, no bin left out: "
      f"{sum(sizes.values()) / 1e6:.1f} MB on the card ({', '.join(f'{k} {v / 1e6:.2f}' for k, v in sizes.items())})",
      made.stderr[-400:])

web = free_port()
gateway = Gateway(binary, f"""status_line = false
state_file = ""
[panel]
start = "chart"
[chart]
charts = ""
base_layer = ""
seamarks = ""
basemap = "{folder}"
[web]
listen = "127.0.0.1:{web}"
""", work=work).start(wait=[web])


def get(path):
    return HTTP(web).get(path)


driver = chromium(390, 844, scrollbars=False, srgb=True)


def js(script, *args):
    return driver.execute_script(script, *args)


# Places whose land or sea is known, each over 300 m from the full shoreline.
SOLENT = [("Newport", 50.700, -1.290, "land"), ("Whippingham", 50.735, -1.265, "land"),
          ("Gurnard, inland", 50.745, -1.335, "land"), ("Wootton", 50.715, -1.240, "land"),
          ("Cowes Roads", 50.783, -1.300, "sea"), ("the Solent off Gurnard", 50.775, -1.345, "sea"),
          ("Osborne Bay", 50.785, -1.255, "sea"), ("off Calshot", 50.800, -1.300, "sea"),
          ("Lepe, inland", 50.800, -1.370, "land")]
EUROPE = [("Paris", 48.86, 2.35, "land"), ("the Bay of Biscay", 45.5, -4.5, "sea"), ("Ireland", 53.0, -7.8, "land"),
          ("the Irish Sea", 53.8, -5.3, "sea"), ("Brittany", 48.2, -3.0, "land"), ("the Channel", 50.0, -2.5, "sea")]
WORLD = [("the Sahara", 23.0, 10.0, "land"), ("Brazil", -10.0, -55.0, "land"), ("Siberia", 62.0, 100.0, "land"),
         ("the Pacific", 0.0, -140.0, "sea"), ("the Atlantic", 30.0, -40.0, "sea"), ("the Indian Ocean", -20.0, 75.0, "sea"),
         ("Australia", -25.0, 135.0, "land"), ("North America", 40.0, -100.0, "land")]


def show(lat, lon, zoom):
    """The chart at a place and zoom; the milliseconds to every base map tile drawn, and the bytes fetched."""
    js("window.telltaleChart.follow = false; window.telltaleChart.map.setView([arguments[0], arguments[1]], arguments[2],"
       " {animate: false}); window.__basemapAt = performance.now();", lat, lon, zoom)
    wait_for(lambda: js("""const tiles = document.querySelectorAll('.chart-basemap canvas');
        return tiles.length > 0 && Array.from(tiles).every(t => t.dataset.basemap);"""), 20, step=0.05)
    return js("return performance.now() - window.__basemapAt")


def colour_at(lat, lon):
    """The colour the base map drew at a place: the pixel of the canvas tile under it."""
    return js("""const map = window.telltaleChart.map, p = map.latLngToContainerPoint([arguments[0], arguments[1]]);
        const box = map.getContainer().getBoundingClientRect(), x = box.left + p.x, y = box.top + p.y;
        for (const tile of document.querySelectorAll('.chart-basemap canvas')) {
          const r = tile.getBoundingClientRect();
          if (x < r.left || x >= r.right || y < r.top || y >= r.bottom) continue;
          const d = tile.getContext('2d').getImageData(Math.floor((x - r.left) * tile.width / r.width),
                                                       Math.floor((y - r.top) * tile.height / r.height), 1, 1).data;
          return [d[0], d[1], d[2], tile.dataset.basemap];
        }
        return null;""", lat, lon)


def hex_rgb(text):
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def judge(places, zoom, letter, label):
    colours = js("return import('./basemap.js').then(m => m.colours())")
    land, sea = hex_rgb(colours["land"]), hex_rgb(colours["sea"])
    wrong, seen = [], []
    for name, lat, lon, kind in places:
        got = colour_at(lat, lon)
        want = land if kind == "land" else sea
        seen.append((name, got))
        if got is None or tuple(got[:3]) != want or got[3] != letter:
            wrong.append((name, kind, got))
    check(not wrong, f"{label}: {len(places) - len(wrong)} of {len(places)} known places drawn as land or sea "
          f"(resolution {letter} at zoom {zoom})", wrong or seen)


try:
    # A phone that last looked at the Solent at zoom 12 (the chart opens where it was left), its first view timed
    # from the page's start.
    driver.get(f"http://127.0.0.1:{web}/leaflet/leaflet.css")
    js("localStorage.setItem('telltale.chart.view', '[50.75,-1.30]'); localStorage.setItem('telltale.chart.zoom', '12')")
    driver.get(f"http://127.0.0.1:{web}/")
    shown = wait_for(lambda: js("return !!(window.telltaleChart && window.telltaleChart.map && "
                                "window.telltaleChart.baseMap)"), 20)
    check(shown, "the chart opens with the offline base map on, no chart file and no online layer")
    wait_for(lambda: js("""const tiles = document.querySelectorAll('.chart-basemap canvas');
        return tiles.length > 0 && Array.from(tiles).every(t => t.dataset.basemap);"""), 20, step=0.05)
    painted = js("return performance.now()")
    stats = js("return import('./basemap.js').then(m => ({...m.baseMapStats}))")
    judge(SOLENT, 12, "f", "the Solent on a phone")
    driver.save_screenshot(os.path.join(shots, "basemap-solent-z12-390.png"))
    check(stats["failed"] == 0 and stats["bytes"] > 0,
          f"the first view of the Solent at zoom 12 on a 390 x 844 phone: {stats['bytes']:,} bytes in "
          f"{stats['requests']} requests ({stats['bins']} bins), every tile painted {painted:.0f} ms after the page "
          "began to load", stats)
    show(48.5, -3.0, 5)
    judge(EUROPE, 5, "l", "western Europe")
    driver.save_screenshot(os.path.join(shots, "basemap-europe-z5-390.png"))
    show(10.0, 0.0, 1)
    judge(WORLD, 1, "c", "the world")
    driver.save_screenshot(os.path.join(shots, "basemap-world-z1-390.png"))
    js("document.body.className = 'theme-night'; window.telltaleChart.baseMap.redraw();")
    show(50.75, -1.30, 12)
    night = js("return import('./basemap.js').then(m => m.colours())")
    got = colour_at(50.700, -1.290)
    check(got is not None and tuple(got[:3]) == hex_rgb(night["land"]), "at night the land is drawn dark", got)
    driver.save_screenshot(os.path.join(shots, "basemap-solent-night-390.png"))
finally:
    driver.quit()

refused = [get(path)[0] for path in ("/charts/.basemap/q/1", "/charts/.basemap/f/99999999",
                                      "/charts/.basemap/f/" + ",".join(["1"] * 65), "/charts/.basemap/f/1,,2",
                                      "/charts/.basemap/f/-1", "/charts/.basemap/../etc/passwd")]
status, body = get("/charts/.basemap/c/0")
check(all(code == 404 for code in refused) and status == 200 and gateway.process.poll() is None,
      f"requests that are not the base map's refused ({refused}); a good one answered; the gateway runs on")
gateway.stop()
check.finish()
