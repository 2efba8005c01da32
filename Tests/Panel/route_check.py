"""The route editor on the chart (#40) in Debian's chromium through selenium, against `telltale run`.

    route_check.py BINARY

A boat off the Isle of Wight on UDP; the chart opened; three taps make a route, a point is dragged, the route saved
(read back from the Resources API), activated (BWC on the TCP output names its first leg's end), exported as GPX and
read back by gpxpy, a GPX file written by gpxpy imported and saved, and the boat's spot marked. Prints
`route-check: N passed, M failed`.
"""
import json
import os
import socket
import sys
import tempfile
import threading
import time
import urllib.request

import gpxpy
import gpxpy.gpx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import Checks, Gateway, OutputReader, chart_settings, free_port, nmea_position, sentence, wait_for  # noqa: E402

from browser import chromium  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

binary = sys.argv[1]
check = Checks("route-check")
work = tempfile.mkdtemp()
charts = os.path.join(work, "charts")
os.mkdir(charts)
BOAT = (50.7795, -1.3030)
web, udp, nmea = free_port(), free_port(socket.SOCK_DGRAM), free_port()
config = f"""talker = "II"
status_line = false
state_file = "{work}/state.toml"
[[input]]
name = "bus"
url = "udp://127.0.0.1:{udp}"
[[output]]
name = "plotter"
url = "tcp://127.0.0.1:{nmea}"
""" + chart_settings(charts, web)
gateway = Gateway(binary, config, work=work).start(wait=[web, nmea])
output = OutputReader(nmea, reconnect=True)
running = [True]


def instruments():
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    while running[0]:
        stamp = time.strftime("%H%M%S", time.gmtime())
        day = time.strftime("%d%m%y", time.gmtime())
        for line in [sentence(f"GPRMC,{stamp}.00,A,{nmea_position(BOAT[0], 'NS')},{nmea_position(BOAT[1], 'EW')},"
                              f"5.0,100.0,{day},,,A"), sentence("HEHDT,100.0,T")]:
            try:
                sender.sendto(line, ("127.0.0.1", udp))
            except OSError:
                pass
        time.sleep(1)


threading.Thread(target=instruments, daemon=True).start()


def api(path):
    with urllib.request.urlopen(f"http://127.0.0.1:{web}/signalk/v2/api{path}", timeout=5) as response:
        return json.loads(response.read())


driver = chromium(1024, 900, scrollbars=False)


def js(script, *args):
    return driver.execute_script(script, *args)


try:
    driver.get(f"http://127.0.0.1:{web}/")
    check(wait_for(lambda: js("return !!(window.telltaleChart && window.telltaleChart.map && "
                              "window.telltaleChart.boat)"), 15), "the chart opens")
    time.sleep(2)
    js("window.telltaleChart.map.setView([50.7795, -1.3030], 14, {animate: false})")
    driver.find_element(By.ID, "chart-plan").click()
    check(wait_for(lambda: js("return !!document.querySelector('.chart-plan-panel')"), 5), "✎ Route opens the editor")
    # Three taps on the map, each at a pixel whose position Leaflet gives back.
    mapped = driver.find_element(By.CSS_SELECTOR, ".chart-map")
    size = mapped.size
    taps = [(40, -120), (-120, -60), (180, -40)]  # above the editor's panel, right of the buttons
    time.sleep(1)
    for dx, dy in taps:
        # Apart in time (not a double-click, which Leaflet takes for a zoom).
        ActionChains(driver).move_to_element_with_offset(mapped, dx, dy).click().perform()
        time.sleep(0.8)
    points = js("return window.telltaleRoutes.editor.points")
    rows = js("return document.querySelectorAll('#plan-legs tr').length")
    check(len(points) == 3 and rows == 3, f"three taps, three points and two legs with their total ({len(points)}, "
          f"{rows} rows)", points)
    legs_text = js("return document.querySelector('#plan-legs').textContent")
    check("NM" in legs_text and "°" in legs_text and " h" in legs_text,
          "each leg's distance, bearing and time at the boat's speed shown", legs_text)
    # Drag the second point 60 px down.
    marker = driver.find_elements(By.CSS_SELECTOR, ".chart-plan-point")[1]
    before = dict(points[1])
    ActionChains(driver).click_and_hold(marker).move_by_offset(10, 30).move_by_offset(10, 30).release().perform()
    time.sleep(0.5)
    moved = js("return window.telltaleRoutes.editor.points[1]")
    check(moved["lat"] < before["lat"] - 1e-4, "a point dragged moves (south, as dragged down)", (before, moved))
    name = driver.find_element(By.ID, "plan-name")
    name.clear()
    name.send_keys("Check passage")
    driver.find_element(By.ID, "plan-save").click()
    saved = {}

    def find_saved():
        for rid, route in api("/resources/routes").items():
            if route.get("name") == "Check passage":
                saved.update(route, id=rid)
                return True
        return False
    check(wait_for(find_saved, 5), "Save: the route is a Signal K route resource on the gateway", saved)
    editor_points = js("return window.telltaleRoutes.editor.points")
    coordinates = saved.get("feature", {}).get("geometry", {}).get("coordinates", [])
    check(len(coordinates) == 3 and all(abs(c[0] - p["lon"]) < 2e-7 and abs(c[1] - p["lat"]) < 2e-7
                                        for c, p in zip(coordinates, editor_points)),
          "its points as drawn, the dragged one where it was dropped", coordinates)

    # Activate: the engine follows it; BWC names the first leg's end.
    mark = len(output)
    driver.find_element(By.ID, "plan-activate").click()
    href = f"/resources/routes/{saved.get('id')}"
    check(wait_for(lambda: (api("/vessels/self/navigation/course").get("activeRoute") or {}).get("href") == href, 6),
          "Activate: the course's activeRoute is the saved route")
    check(wait_for(lambda: any(t[3:6] == "BWC" and t.split("*")[0].split(",")[12] == "WP2"
                               for t in output.texts()[mark:]), 6),
          "BWC on the TCP output heads for WP2 (the first leg's end)", output.texts()[-3:])
    check(wait_for(lambda: js("return document.querySelectorAll('path.chart-route').length") >= 1, 20),
          "the chart draws the route followed")

    # Export: the GPX the button makes, read back by gpxpy.
    driver.find_element(By.ID, "plan-export").click()
    text = driver.execute_async_script(
        "const done = arguments[0]; fetch(document.getElementById('plan-export-link').href)"
        ".then(r => r.text()).then(done, e => done('error ' + e))")
    try:
        gpx = gpxpy.parse(text)
        route = gpx.routes[0]
        ok = (route.name == "Check passage" and [p.name for p in route.points] == ["WP1", "WP2", "WP3"] and
              all(abs(p.latitude - q["lat"]) < 2e-7 and abs(p.longitude - q["lon"]) < 2e-7
                  for p, q in zip(route.points, editor_points)))
    except Exception as error:  # noqa: BLE001
        ok, text = False, f"{error}: {text[:200]}"
    check(ok, "Export GPX: gpxpy reads the route, its names and positions", text[:300])

    # Import: a file gpxpy wrote (a friend's route), then saved.
    made = gpxpy.gpx.GPX()
    friend = gpxpy.gpx.GPXRoute(name="Friend's route")
    for label, lat, lon in [("Needles", 50.6626, -1.5912), ("Hurst", 50.7063, -1.5526), ("Yarmouth", 50.7080, -1.5002),
                            ("Cowes", 50.7654, -1.2970)]:
        friend.points.append(gpxpy.gpx.GPXRoutePoint(lat, lon, name=label))
    made.routes.append(friend)
    path = os.path.join(work, "friend.gpx")
    open(path, "w").write(made.to_xml())
    driver.find_element(By.ID, "plan-import").send_keys(path)
    check(wait_for(lambda: js("return window.telltaleRoutes.editor.points.map(p => p.name).join(',')")
                   == "Needles,Hurst,Yarmouth,Cowes", 5), "Import GPX: gpxpy's route in the editor, its names kept")
    driver.find_element(By.ID, "plan-save").click()
    check(wait_for(lambda: any(r.get("name") == "Friend's route" and len(r["feature"]["geometry"]["coordinates"]) == 4
                               for r in api("/resources/routes").values()), 5), "and saved as a new route")
    driver.find_element(By.ID, "plan-done").click()
    check(not js("return !!document.querySelector('.chart-plan-panel')"), "Done closes the editor")

    # Mark this spot.
    driver.find_element(By.ID, "chart-mark").click()

    def marked():
        for point in api("/resources/waypoints").values():
            lon, lat = point["feature"]["geometry"]["coordinates"]
            if abs(lat - BOAT[0]) < 1e-4 and abs(lon - BOAT[1]) < 1e-4 and point.get("name", "").startswith("Mark"):
                return True
        return False
    check(wait_for(marked, 5), "⚑ Mark: a waypoint at the boat's position")
    check(gateway.alive(), "the gateway is still up")
finally:
    running[0] = False
    driver.quit()
    output.stop()
    gateway.stop()
check.finish()
