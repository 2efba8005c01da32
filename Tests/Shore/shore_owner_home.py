"""The owner's boat from home (shore_accounts_check.py, part 2b): aurora's owner asks for her values and her history
(the History API's query, answered from the store) and gets them, brise's 403; then, in chromium at a phone's width,
her boat's own layouts on the shore's panel: the instruments with the speed the uplink sent, the chart with her marker
and her track from the store and none of the buttons that would command her, the history tile with the greatest speed
the store's history says. Read-only: a PUT to the pilot refused and nothing published to any boat's commands while
her phone looks."""
import json

import paho.mqtt.client as mqtt

from browser import chromium
from support import wait_for

KNOT = 1852 / 3600


def values(get, cookie, boat):
    status, _, body = get(f"/telltale/v1/fleet/boats/{boat}/values", cookie)
    return status, (json.loads(body) if status == 200 else {})


def value(answer, path):
    return next((v["value"] for v in answer.get("values", []) if v["path"] == path), None)


def owner_home(check, web, broker, get, http, cookie, name, password):
    published = []
    commands = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2) if hasattr(mqtt, "CallbackAPIVersion") else mqtt.Client()
    commands.on_message = lambda c, u, m: published.append(m.topic)
    commands.connect("127.0.0.1", broker)
    commands.subscribe("telltale/+/commands", qos=1)
    commands.loop_start()
    try:
        mine, answer = values(get, cookie, "aurora")
        theirs = values(get, cookie, "brise")[0]
        history = "/telltale/v1/fleet/boats/{}/history/values?paths=navigation.speedOverGround:max,navigation.position" \
                  "&duration=PT1H&resolution=60"
        status, _, body = get(history.format("aurora"), cookie)
        rows = json.loads(body).get("data", []) if status == 200 else []
        other = get(history.format("brise"), cookie)[0]
        sog = value(answer, "navigation.speedOverGround")
        check(mine == 200 and isinstance(sog, (int, float)) and value(answer, "navigation.position")
              and theirs == 403 and status == 200 and any(r[1] is not None for r in rows) and other == 403,
              f"aurora's owner: her values ({len(answer.get('values', []))} paths, SOG {sog}) and her history from the "
              f"store ({sum(r[1] is not None for r in rows)} minutes with a speed); brise's values {theirs}, "
              f"history {other}", {"values": str(answer)[:300], "history": body[:300]})
        phone(check, web, get, cookie, name, password)
        put = http.request("PUT", "/signalk/v1/api/vessels/self/steering/autopilot/state",
                           headers={"Cookie": cookie.split(";")[0], "Content-Type": "application/json"},
                           body={"value": "auto"})[0]
    finally:
        commands.loop_stop()
        commands.disconnect()
    check(put >= 400 and not published,
          f"read-only from home: a PUT to the pilot with her session {put}; nothing published to any boat's commands "
          f"while her phone looked ({len(published)} messages)", published[:10])


def phone(check, web, get, cookie, name, password):
    driver = chromium(390, 844)
    try:
        driver.get(f"http://127.0.0.1:{web}/login.html")
        wait_for(lambda: driver.find_elements("id", "password"), 10)
        driver.find_element("id", "name").send_keys(name)
        driver.find_element("id", "password").send_keys(password)
        driver.find_element("id", "submit").click()
        names = "return window.telltale ? window.telltale.layouts().map(l => l.name) : []"
        offered = wait_for(lambda: driver.execute_script(names) == ["Fleet", "aurora", "aurora: chart",
                                                                    "aurora: history"], 30, step=0.5)
        # Her row's button, once the Fleet layout has drawn it (a loaded machine draws it later than the layouts).
        click = "const b = document.querySelector('button[data-open=\"aurora\"]'); if (b) b.click(); return !!b;"
        opened = wait_for(lambda: driver.execute_script(click), 20, step=0.5)
        said = "return document.getElementById('connection').textContent"
        tile = "const v = document.querySelector('.tile[data-id=speed] [data-q=sog]'); return v ? [v.textContent," \
               " v.classList.contains('stale')] : null"

        def same_speed():
            shown = driver.execute_script(tile)
            sent = value(values(get, cookie, "aurora")[1], "navigation.speedOverGround")
            try:
                return shown and not shown[1] and abs(float(shown[0]) - sent / KNOT) < 0.3
            except (TypeError, ValueError):
                return False
        instruments = wait_for(same_speed, 20, step=0.5)
        check(offered and opened and instruments and driver.execute_script(said).startswith("aurora: heard"),
              f"{name}'s phone ashore: her boat's layouts beside the Fleet layout, opened from her row; the speed "
              f"tile's SOG {driver.execute_script(tile)} as her uplink sent it; the line says "
              f"'{driver.execute_script(said)}'", {"layouts": driver.execute_script(names), "opened": opened})
        driver.execute_script("window.telltale.show(2)")
        # The track's points as the chart holds them (Leaflet's path leaves out those in a straight line) and drawn.
        track = "const t = window.telltaleChart.track, p = document.querySelector('path.chart-track');" \
                " return p && (p.getAttribute('d') || '').length > 8 && t.length ? t[0].length : 0"
        basemap = json.loads(get("/charts/", cookie)[2] or b"{}").get("baseMap")
        coast = "return document.querySelectorAll('.chart-basemap canvas[data-basemap]').length"
        drawn = wait_for(lambda: driver.execute_script(track) >= 3 and driver.find_elements("css selector", ".chart-boat")
                         and (not basemap or driver.execute_script(coast) > 0), 45, 0.5)
        buttons = driver.execute_script("return [...document.querySelectorAll('.chart-buttons button')]"
                                        ".filter(b => !b.hidden).map(b => b.id)")
        check(drawn and not {"chart-anchor", "chart-plan", "chart-clear", "chart-mark", "chart-weather-route"}
              & set(buttons),
              f"her chart ashore: her marker and her track from the store ({driver.execute_script(track)} points); "
              f"the buttons {buttons}, none that commands her; the base map "
              + (f"drawn ({driver.execute_script(coast)} tiles)" if basemap else "not built here (make basemap)"))
        driver.execute_script("window.telltale.show(3)")
        top = "const v = document.querySelector('.tile[data-id=speedhistory] [data-q=sog-top]'); return v ?" \
              " v.textContent : ''"
        query = "/telltale/v1/fleet/boats/aurora/history/values?paths=navigation.speedOverGround:max&duration=3600" \
                "&resolution=18"

        def same_top():
            rows = json.loads(get(query, cookie)[2] or b"{}").get("data", [])
            best = max((r[1] for r in rows if r[1] is not None), default=None)
            try:
                return best is not None and abs(float(driver.execute_script(top)) - best / KNOT) < 0.06
            except ValueError:
                return False
        check(wait_for(same_top, 40, step=1),
              f"her history tile ashore: SOG max {driver.execute_script(top)} kn over the hour, as the store's history "
              "says")
    finally:
        driver.quit()
