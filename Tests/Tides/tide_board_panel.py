"""The tide check on board's panel part: the Tide tile and the depth tile's low water on the Tides layout, the chart's
tidal stream arrows, in Debian's chromium."""
import json
import os

from browser import chromium
from support import wait_for


def _driver(web):
    driver = chromium(1024, 900)
    driver.get(f"http://127.0.0.1:{web}/")
    wait_for(lambda: driver.execute_script("return !!(window.telltale && telltale.link.connected)"), 15)
    return driver


def tide_tile(check, http, web, work):
    """The Tides layout: the tile's height, high and low as Signal K has them, its curve with now, and the depth
    tile's LW line."""
    driver = _driver(web)
    try:
        driver.execute_script("telltale.show(telltale.layouts().findIndex(l => l.name === 'Tides'))")
        # The curve comes from /telltale/v1/tides, the numbers from the stream: both, however loaded the machine.
        drawn = wait_for(lambda: driver.execute_script(
            "const p = document.querySelector('svg.tide-curve polyline'), n = document.querySelector('[data-q=td-now]'); "
            "return p && n && n.textContent.trim() !== '\u2014' ? p.getAttribute('points').split(' ').length : 0")
            > 200, 30, step=0.5)
        shown = driver.execute_script("""const v = q => { const e = document.querySelector(`[data-q="${q}"]`);
            return e ? e.textContent : null; };
            return {now: v('td-now'), high: v('td-high'), low: v('td-low'), lw: v('lw'),
                    station: document.querySelector('.tide-station').textContent,
                    nowLine: !!document.querySelector('svg.tide-curve line.now'),
                    marks: document.querySelectorAll('svg.tide-curve circle').length}""")
        status, body = http.text("/signalk/v1/api/vessels/self/environment/tide")
        tide = json.loads(body) if status == 200 else {}
        height = tide.get("heightNow", {}).get("value")
        low = tide.get("depthAtLow", {}).get("value")
        check(drawn and shown["now"] and height is not None and shown["now"].startswith(f"{height:.2f}")
              and shown["nowLine"] and shown["marks"] >= 5 and "Boston" in shown["station"],
              f"the Tide tile in chromium: now {shown['now']} m, HW {shown['high']}, LW {shown['low']}, the curve with "
              f"now marked and {shown['marks']} high and low waters, the station named", json.dumps(shown))
        check(low is not None and shown["lw"] and shown["lw"].startswith(f"{low:.1f}"),
              f"the depth tile's low water line: {shown['lw']} (the water under the keel then, and when)",
              json.dumps(shown))
        driver.save_screenshot(os.path.join(os.environ.get("SCREENSHOTS", work), "tide-tile.png"))
    finally:
        driver.quit()


def stream_arrows(check, http, web, work):
    """The chart near Turn Point with its Tidal streams overlay on: an arrow at each current station in view, each
    as /telltale/v1/tides/currents says at the hour chosen."""
    driver = _driver(web)
    try:
        driver.execute_script("telltale.show(telltale.layouts().findIndex(l => l.name === 'Chart'))")
        wait_for(lambda: driver.execute_script("return !!(window.telltaleChart && telltaleChart.map)"), 15)
        # The chart told its size and set there, unanimated, before anything is read of it (CI's run of 04708e8 read
        # the bounds of a chart that had not measured itself yet: one station in view, not three); the overlay's
        # switch waited for (the tides add it once they know the stations near: CI's run of 9b814af clicked before).
        place = ("telltaleChart.follow = false; const m = telltaleChart.map; m.invalidateSize({animate: false}); "
                 "m.setView([48.69, -123.24], 12, {animate: false}); ")
        driver.execute_script(place)
        switch = "[...document.querySelectorAll('.leaflet-control-layers-overlays label')]" \
                 ".find(l => l.textContent.includes('Tidal streams'))"
        offered = wait_for(lambda: driver.execute_script(f"return !!{switch}"), 30, step=0.5)
        if offered:
            driver.execute_script(f"{switch}.querySelector('input').click()")
        arrows = offered and wait_for(lambda: driver.execute_script(
            place + "return document.querySelectorAll('.chart-stream svg').length") >= 3, 30, step=1)
        drawn = driver.execute_script("""return [...document.querySelectorAll('.chart-stream svg')].map(s =>
            [Number(s.dataset.kn), Number(s.dataset.set)])""")
        b = driver.execute_script("const b = telltaleChart.map.getBounds(); "
                                  "return [b.getSouth(), b.getWest(), b.getNorth(), b.getEast()]")
        label = driver.execute_script("const s = document.querySelector('.stream-time span'); "
                                      "return s ? s.textContent : ''")
        status, body = http.text(f"/telltale/v1/tides/currents?south={b[0]}&west={b[1]}&north={b[2]}&east={b[3]}")
        listed = json.loads(body).get("stations", []) if status == 200 else []
        expected = sorted((round(abs(s["speed"]), 1), s["direction"]) for s in listed if s["direction"] is not None)
        shown = sorted((round(k, 1), d) for k, d in drawn)
        # Asked for again a few seconds after the page did: the same stations and sets, the speeds within a tenth
        # of a knot (a stream changes by less than that in a minute).
        by_set = lambda pairs: sorted(pairs, key=lambda p: (p[1], p[0]))  # noqa: E731
        same = len(shown) == len(expected) and all(
            a[1] == b[1] and abs(a[0] - b[0]) <= 0.11 for a, b in zip(by_set(shown), by_set(expected)))
        check(arrows and same and "+0 h" in label,
              f"the chart's Tidal streams at Turn Point: {len(drawn)} arrows, each the speed and set the gateway "
              f"predicts for its station now ({label})", f"{drawn} against {expected}")
        driver.save_screenshot(os.path.join(os.environ.get("SCREENSHOTS", work), "tidal-streams.png"))
    finally:
        driver.quit()
