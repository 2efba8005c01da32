"""The panel under a sailor's fingers (panel_check.py): a swipe to every layout, with its name and dot; on the chart a
drag pans and Follow restores following; a unit changed by a double tap, kept across a reload; the layout editor's
own layout after the presets, kept in the browser."""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def gestures(check, compare, double_tap, driver, sentence, swipe, text, unit, wait):
    """Swipes through the layouts, a double tap's unit, a layout of the user's own."""
    # ---- Swipes ----
    names = []
    panned = None
    expected = ["Racing", "Navigation", "Motion", "Chart", "Weather", "Tides", "History", "Autopilot", "Sailing"]
    for _ in range(len(expected)):
        on_chart = driver.find_element(By.ID, "layout-name").text == "Chart"
        if on_chart:
            # A drag on the chart pans it (following stops, the button shows) and does not change the layout.
            time.sleep(2)
            swipe(330, 60, 450)
            # Waited for rather than slept on: on a machine busy with other work the panel's next frame came after
            # half a second, and Follow was still showing (a failure of the check, not of the panel: 2026-12-03).
            def shown():
                return any(button.is_displayed() for button in driver.find_elements(By.ID, "chart-follow"))
            wait(shown, 5)
            follow = driver.find_elements(By.ID, "chart-follow")
            panned = (driver.find_element(By.ID, "layout-name").text, shown())
            if shown():
                follow[0].click()
                panned += (wait(lambda: not shown(), 5),)
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
    check(len(driver.find_elements(By.CSS_SELECTOR, "#dots span")) == 10, "ten layouts: nine presets and the user's")
