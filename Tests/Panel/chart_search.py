"""The chart's search (chart_check.py, #42): Find, then a waypoint's name, the AIS ship's name and MMSI, a town of the
gazetteer: the result chosen centres the chart on it and shows the forecast summary there."""
import os
import time

from selenium.webdriver.common.by import By

from support import wait_for


def search(check, driver, js, root, shots, viewport):
    """Find by a waypoint, a ship's name and MMSI, a town: the chart centred on each, the forecast there."""
    # Search (#42): Find, then a waypoint's name, the AIS ship's name and MMSI, a town of the gazetteer: the result
    # chosen centres the chart on it and shows the forecast summary there.
    def find(text):
        driver.find_element(By.ID, "chart-find").click()
        wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".chart-search input"), 5)
        driver.find_element(By.CSS_SELECTOR, ".chart-search input").send_keys(text)
        wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, ".chart-search li"), 5)
        time.sleep(0.5)
        items = js("return [...document.querySelectorAll('.chart-search li')].map(li => [li.firstChild.textContent, "
                   "li.lastChild.textContent, +li.dataset.lat, +li.dataset.lon])")
        if not items:
            return [], None, False
        driver.find_element(By.CSS_SELECTOR, ".chart-search li").click()
        sheet = wait_for(lambda: js("return !!document.querySelector('.forecast-sheet .forecast-here')"), 5)
        centre = js("const c = window.telltaleChart.map.getCenter(); return [c.lat, c.lng]")
        js("document.querySelector('.forecast-sheet .forecast-close').click()")
        return items, centre, sheet

    def near(centre, lat, lon):
        return centre is not None and abs(centre[0] - lat) < 2e-4 and abs(centre[1] - lon) < 2e-4

    items, centre, sheet = find("EAST")
    check(items and items[0][0] == "EAST" and near(centre, 50.7733, -1.2833) and sheet,
          "Find 'EAST': the route's mark, chosen, centres the chart on it with the forecast there", str(items[:3]))
    items, centre, sheet = find("chart sh")
    check(items and items[0][0] == "CHART SHIP" and near(centre, 50.7840, -1.2960) and sheet,
          "Find 'chart sh': the AIS ship by its name", str(items[:3]))
    items, centre, sheet = find("235011122")
    check(items and items[0][0] == "CHART SHIP" and "235011122" in items[0][1] and near(centre, 50.7840, -1.2960),
          "and by its MMSI", str(items[:3]))
    if os.path.exists(os.path.join(root, ".build", "basemap", "gazetteer.txt")):
        items, centre, sheet = find("Cowes")
        check(items and items[0][0] == "Cowes" and "United Kingdom" in items[0][1] and centre
              and abs(centre[0] - 50.76) < 0.02 and abs(centre[1] + 1.30) < 0.02 and sheet,
              "Find 'Cowes': the town from the gazetteer (GeoNames via libgeonames0)", str(items[:3]))
    else:
        print("chart-check: no .build/basemap/gazetteer.txt (make basemap): the gazetteer's search skipped")
    driver.save_screenshot(os.path.join(shots, "chart-find-phone.png"))
    viewport(1024, 768)
    time.sleep(2)
    driver.save_screenshot(os.path.join(shots, "chart-day-tablet.png"))
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    check(not errors, "no script error on the page", "; ".join(errors[:3]))
