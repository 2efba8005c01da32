"""The routing check on board's panel part (routing_board_check.py): the chart's Weather route tool in Debian's
chromium, a tap for the destination, the plan drawn (isochrones growing, then the route), Follow."""
import json
import os

from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

from browser import chromium
from support import wait_for


def tap(driver, lat, lon):
    """A finger on the chart where (lat, lon) is drawn."""
    x, y = driver.execute_script("""const m = telltaleChart.map, p = m.latLngToContainerPoint(arguments[0]);
        const r = m.getContainer().getBoundingClientRect(); return [r.left + p.x, r.top + p.y];""", [lat, lon])
    finger = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    finger.pointer_action.move_to_location(int(x), int(y)).pointer_down().pointer_up()
    finger.perform()


def weather_route_tool(check, http, web, work, goal):
    driver = chromium(1024, 900)
    try:
        driver.get(f"http://127.0.0.1:{web}/")
        wait_for(lambda: driver.execute_script("return !!(window.telltale && telltale.link.connected)"), 15)
        driver.execute_script("telltale.show(telltale.layouts().findIndex(l => l.name === 'Chart'))")
        wait_for(lambda: driver.execute_script("return !!(window.telltaleChart && telltaleChart.map)"), 15)
        # The chart's tools come once its layers are made (later on a loaded machine).
        wait_for(lambda: driver.find_elements("id", "chart-weather-route"), 30, step=0.5)
        driver.find_element("id", "chart-weather-route").click()
        wait_for(lambda: driver.execute_script("return !!document.querySelector('.routing-panel')"), 10)
        driver.execute_script("telltaleChart.map.setView([47.52, -3.19], 11, {animate: false})")
        wait_for(lambda: True, 1)
        tap(driver, *goal)
        marked = wait_for(lambda: driver.execute_script("return !!document.querySelector('.routing-destination')"), 5)
        driver.find_element("id", "routing-go").click()
        drawn = wait_for(lambda: driver.execute_script("return !!document.querySelector('path.routing-route')"), 120,
                         step=0.5)
        shown = driver.execute_script("""return {isochrones: document.querySelectorAll('path.routing-isochrone').length,
            waypoints: document.querySelectorAll('path.routing-waypoint').length,
            status: document.querySelector('.routing-status').textContent}""")
        status, body = http.text("/telltale/v1/routing")
        answer = json.loads(body) if status == 200 else {}
        plan = answer.get("plan") or {}
        to = (answer.get("job") or {}).get("to") or {}
        check(marked and drawn and abs(to.get("latitude", 0) - goal[0]) < 0.003
              and abs(to.get("longitude", 0) - goal[1]) < 0.003
              and shown["isochrones"] == len(plan.get("isochrones", [])) and shown["isochrones"] >= 5
              and shown["waypoints"] == len(plan.get("waypoints", [])) and "ETA" in shown["status"],
              f"the chart's Weather route tool in chromium: a tap for the destination ({to.get('latitude')}, "
              f"{to.get('longitude')}), Plan, {shown['isochrones']} isochrones drawn then the route of "
              f"{shown['waypoints']} waypoints; said: {shown['status'][:90]}", json.dumps(shown))
        driver.save_screenshot(os.path.join(os.environ.get("SCREENSHOTS", work), "weather-route.png"))
        driver.find_element("id", "routing-follow").click()
        followed = wait_for(lambda: (json.loads(http.text("/signalk/v2/api/vessels/self/navigation/course")[1]
                                                or "{}").get("activeRoute") or {}).get("href") == answer.get("route"),
                            10)
        check(followed, f"Follow: the Course API follows the routed route ({answer.get('route')})")
    finally:
        driver.quit()
