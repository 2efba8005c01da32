"""The panel draws from the history on the card (#40), in Debian's chromium through selenium, against `telltale run`.

    history_panel_check.py BINARY

The demo voyage (32 minutes) played at 32 times its speed to its end; then the History layout: the passage tile's
distance, top speed and greatest heel against the same worked out by pynmea2 from the log; the wind history over
3 hours and the heel history over 30 minutes drawn from the History API; the chart's track of 21 June 2026 with the
day's passage. Prints `history-panel-check: N passed, M failed`.
"""
import datetime
import json
import math
import os
import re
import sys
import tempfile
import time
import urllib.request

import pynmea2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ROOT, Checks, Gateway, chart_settings, free_port  # noqa: E402

from browser import chromium  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

binary = sys.argv[1]
check = Checks("history-panel-check")
work = tempfile.mkdtemp(prefix="telltale-history-panel-")
charts = os.path.join(work, "charts")
os.mkdir(charts)
demo = os.path.join(ROOT, "Fixtures", "demo-voyage", "voyage.nmea")
web = free_port()
SPEED = 32
config = f"""talker = "II"
status_line = false
state_file = "{work}/state.toml"
[[input]]
name = "demo-voyage"
url = "file:{demo}"
speed = {SPEED}
""" + chart_settings(charts, web)

# The log by pynmea2: the distance of its RMC positions joined, the first of each 10 s as the tile asks for them (GPS
# jitter a second apart adds a tenth of a mile the boat never sailed), its top SOG, its greatest roll (XDR ROLL).
metres, last, sogs, rolls, bucket = 0.0, None, [], [], None
for line in open(demo):
    try:
        message = pynmea2.parse(line.strip())
    except pynmea2.ParseError:
        continue
    if isinstance(message, pynmea2.types.talker.RMC) and message.status == "A":
        sogs.append(float(message.spd_over_grnd))
        stamp = message.timestamp
        seconds = stamp.hour * 3600 + stamp.minute * 60 + stamp.second
        if seconds // 10 == bucket:
            continue
        bucket = seconds // 10
        here = (math.radians(message.latitude), math.radians(message.longitude))
        if last:
            h = (math.sin((here[0] - last[0]) / 2) ** 2
                 + math.cos(last[0]) * math.cos(here[0]) * math.sin((here[1] - last[1]) / 2) ** 2)
            metres += 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))
        last = here
    elif isinstance(message, pynmea2.types.talker.XDR):
        fields = message.data
        for i in range(0, len(fields) - 3, 4):
            if fields[i + 3] == "ROLL" and fields[i + 1]:
                rolls.append(float(fields[i + 1]))
log_nm = metres / 1852

gateway = Gateway(binary, config, work=work).start(wait=[web])
# The voyage's 32 minutes in a minute, and the last minute written.
time.sleep(32 * 60 / SPEED + 15)


def api(path):
    with urllib.request.urlopen(f"http://127.0.0.1:{web}{path}", timeout=10) as response:
        return json.loads(response.read())


driver = chromium(1024, 900, scrollbars=False)


def wait(predicate, seconds, step=0.2):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return True
        except Exception:  # noqa: BLE001 (not there yet)
            pass
        time.sleep(step)
    return False


def text(tile, q):
    return driver.find_element(By.CSS_SELECTOR, f'.tile[data-id="{tile}"] .v[data-q="{q}"]').text.strip()


def points(selector):
    line = driver.find_element(By.CSS_SELECTOR, selector)
    return [p for p in (line.get_attribute("points") or "").split(" ") if p]


try:
    url = f"http://127.0.0.1:{web}/"
    driver.get(url)
    index = driver.execute_script("return window.telltale.layouts().findIndex(l => l.name === 'History')")
    check(index is not None and index >= 0, "a History layout among the presets", index)
    driver.execute_script(
        "localStorage.clear();"
        f"localStorage.setItem('telltale.layout', '{index}');"
        "localStorage.setItem('telltale.settings.passage', JSON.stringify({window: '60'}));"
        "localStorage.setItem('telltale.settings.windhistory', JSON.stringify({window: '180'}));"
        "localStorage.setItem('telltale.settings.heelhistory', JSON.stringify({window: '30'}));"
        "localStorage.setItem('telltale.settings.speedhistory', JSON.stringify({window: '60'}));")
    driver.get(url)
    check(wait(lambda: text("passage", "p-distance") not in ("", "—"), 20),
          "the passage tile fills from the History API", text("passage", "p-distance"))
    shown = text("passage", "p-distance")
    sailed = float(re.sub(r"[^0-9.]", "", shown) or "nan")
    check(abs(sailed - log_nm) <= 0.1 + 0.02 * log_nm,
          f"distance sailed over the last hour: {shown} on the tile, {log_nm:.2f} NM by pynmea2 from the log's RMC")
    top = float(re.sub(r"[^0-9.]", "", text("passage", "p-top")) or "nan")
    ordered = sorted(sogs)
    check(ordered[int(len(ordered) * 0.9)] - 0.05 <= top <= ordered[-1] + 0.05,
          f"top speed {top} kn: no more than the log's highest RMC SOG ({ordered[-1]}) and no less than its 90th "
          f"percentile ({ordered[int(len(ordered) * 0.9)]}): the history samples a second at a time")
    heel_text = text("passage", "p-heel")
    heel = float(re.sub(r"[^0-9.]", "", heel_text) or "nan")
    worst = max(rolls, key=abs)
    extremes = sorted(abs(r) for r in rolls)
    side = "P" if worst < 0 else "S"
    check(extremes[int(len(extremes) * 0.9)] - 1 <= heel <= extremes[-1] + 0.5 and heel_text.endswith(side),
          f"greatest heel {heel_text}: the log's XDR ROLL reaches {abs(worst):.1f}° {side}")
    check(wait(lambda: len(points(".tile[data-id='windhistory'] polyline.tws")) > 10, 15),
          "true wind history over 3 hours: drawn from the History API (past the hour the page keeps)",
          len(points(".tile[data-id='windhistory'] polyline.tws")))
    check("3 h" in driver.find_element(By.CSS_SELECTOR, ".tile[data-id='windhistory'] [data-u='tws-range']").text,
          "and says its window")
    check(wait(lambda: len(points(".tile[data-id='heelhistory'] polyline.heel")) > 10, 15),
          "heel history over 30 minutes: drawn from the History API",
          len(points(".tile[data-id='heelhistory'] polyline.heel")))
    check(wait(lambda: len(points(".tile[data-id='speedhistory'] polyline.stw")) > 10, 15),
          "speed history over an hour: drawn")
    sog_max = text("speedhistory", "sog-top")
    check(sog_max == f"{top:.1f}", f"its SOG max ({sog_max}) is the passage's top speed ({top:.1f})")

    # The chart: the track of a past day from the history, and that day's passage.
    chart = driver.execute_script("return window.telltale.layouts().findIndex(l => l.chart)")
    driver.execute_script(f"localStorage.setItem('telltale.layout', '{chart}')")
    driver.get(url)
    check(wait(lambda: driver.find_element(By.ID, "chart-day").is_displayed(), 20), "the chart offers a day's track")
    driver.find_element(By.ID, "chart-day").click()
    day = driver.find_element(By.ID, "chart-day-date")
    check(day.get_attribute("value") == "2026-06-21", "the day offered is the boat's (the voyage's clock, not the "
          "phone's)", day.get_attribute("value"))
    driver.execute_script("const d = document.getElementById('chart-day-date'); d.value = '2026-06-21';"
                          "d.dispatchEvent(new Event('change'))")
    check(wait(lambda: driver.find_elements(By.CSS_SELECTOR, "path.chart-day-track"), 15),
          "the day's track drawn on the chart")
    d = driver.find_element(By.CSS_SELECTOR, "path.chart-day-track").get_attribute("d") or ""
    check(d.count("L") > 15, f"through the day's positions ({d.count('L')} segments as Leaflet draws them)")
    summary = driver.find_element(By.ID, "chart-passage").text
    match = re.search(r"([0-9.]+) NM", summary)
    check(summary.startswith("2026-06-21:") and match and abs(float(match.group(1)) - log_nm) <= 0.1 + 0.02 * log_nm,
          f"with the day's passage: {summary!r}")
    driver.find_element(By.ID, "chart-day").click()
    check(not driver.find_elements(By.CSS_SELECTOR, "path.chart-day-track"), "and taken off again")
    driver.execute_script("const d = document.getElementById('chart-day-date'); d.value = '2026-06-20';"
                          "d.dispatchEvent(new Event('change'))")
    check(wait(lambda: "nothing kept" in driver.find_element(By.ID, "chart-passage").text, 10),
          "a day with nothing kept says so")
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    check(not errors, "no error in the page's console", errors[:3])
finally:
    driver.quit()
    gateway.stop()
check.finish()
