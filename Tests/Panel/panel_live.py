"""The panel as the data comes and goes (panel_check.py): the wind stopped, its tile greyed or blanked within its 5 s
timeout, never left looking current; the AIS tile listing a boat heard on AIS by name, range and bearing; a page
opened late drawing the sparklines at once from the server's last minutes; the gateway killed (the disconnected
state at once) and restarted (values again)."""
import signal
import time

from selenium.webdriver.common.by import By


def live_and_stale(check, driver, gateway, start, text, value, wait, wind_feed):
    """The wind stopped, a boat on AIS, a phone that joins late, the gateway killed and restarted."""
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
