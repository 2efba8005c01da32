"""The chart's anchor dialog (chart_check.py): how the boat lies, the circle set by hand, raised after a confirmation,
dropped again with the chain let out (30 m of chain in 8 m of water, the bow 1 m up: a reach of 28.6 m and the 5 m
margin); each judged by what the gateway then publishes."""
import json
import time
import urllib.request

from selenium.webdriver.common.by import By

from support import wait_for


def anchor_dialog(check, driver, js, web):
    """The anchor dialog, each step judged by what the gateway publishes."""
    # The anchor dialog: how the boat lies, the circle set by hand, raised (after a confirmation), dropped again with
    # the chain let out; each judged by what the gateway then publishes.
    def anchor(path):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/navigation/anchor/{path}",
                                        timeout=3) as response:
                body = json.loads(response.read())
            return body.get("value") if isinstance(body, dict) else body
        except Exception:
            return None

    def dialog_button(name):
        driver.find_element(By.ID, name).click()
        time.sleep(1.5)

    driver.find_element(By.ID, "chart-anchor").click()
    time.sleep(0.5)
    state = driver.find_element(By.ID, "anchor-state").text
    check(js("return document.getElementById('anchor').open") and "Anchor down" in state and "circle 60 m" in state
          and driver.find_element(By.ID, "anchor-raise").is_displayed(),
          "the anchor button opens the watch's dialog: down, how far, the circle", state)
    field = driver.find_element(By.NAME, "radius")
    field.clear()
    field.send_keys("75")
    dialog_button("anchor-set")
    check(wait_for(lambda: anchor("maxRadius") == 75, 5), "Set circle: 75 m published as maxRadius", str(anchor("maxRadius")))
    driver.find_element(By.ID, "chart-anchor").click()
    time.sleep(0.5)
    driver.find_element(By.ID, "anchor-raise").click()
    asked = ""
    for _ in range(30):
        try:
            alert = driver.switch_to.alert
            asked = alert.text
            alert.accept()
            break
        except Exception:
            time.sleep(0.1)
    check("Raise the anchor" in asked and wait_for(lambda: anchor("position") is None, 5),
          "Raise asks first, then the watch ends (no anchor position)", asked)
    driver.find_element(By.ID, "chart-anchor").click()
    time.sleep(0.5)
    check(driver.find_element(By.ID, "anchor-drop").is_displayed() and not driver.find_element(By.ID, "anchor-raise").is_displayed(),
          "with no anchor down the dialog offers the drop")
    chain = driver.find_element(By.NAME, "rode")
    chain.clear()
    chain.send_keys("30")
    dialog_button("anchor-drop")
    # 30 m of chain in 8 m of water, the bow 1 m up: a reach of 28.6 m, and the 5 m margin.
    check(wait_for(lambda: anchor("position") is not None and abs((anchor("maxRadius") or 0) - 33.6) < 1.5, 5),
          "Drop with 30 m of chain: the anchor down, the circle from the chain's reach", str(anchor("maxRadius")))
