"""The shore's login in Debian's chromium at a phone's width (shore_accounts_check.py): the panel asked for, the
login page shown instead; a wrong password said on it; the right one, then the Fleet layout with the owner's boat
alone in its table; the alert acknowledged; the push the shore sent shown by the panel's service worker."""
import json

from browser import chromium
from support import wait_for


def phone_login(check, web, name, password, expected):
    driver = chromium(390, 844)
    try:
        driver.get(f"http://127.0.0.1:{web}/")
        shown = wait_for(lambda: driver.current_url.endswith("/login.html")
                         and driver.find_elements("id", "password"), 10)
        driver.find_element("id", "name").send_keys(name)
        driver.find_element("id", "password").send_keys("not the password")
        driver.find_element("id", "submit").click()
        said = wait_for(lambda: "wrong name or password" in driver.find_element("id", "said").text, 10)
        field = driver.find_element("id", "password")
        field.clear()
        field.send_keys(password)
        driver.find_element("id", "submit").click()
        rows = "return [...document.querySelectorAll('.fleet-table tbody tr')].map(r => r.cells[0].innerText.trim())"
        listed = wait_for(lambda: not driver.current_url.endswith("/login.html")
                          and driver.execute_script(rows) == expected, 30, step=0.5)
        cookie = driver.get_cookie("telltale_session") or {}
        check(shown and said and listed and cookie.get("httpOnly") and cookie.get("sameSite") == "Strict",
              f"chromium at 390 px: the panel sends to the login page; a wrong password said there; {name} logged in "
              f"sees the Fleet layout with {', '.join(expected)} alone (the cookie HttpOnly, SameSite "
              f"{cookie.get('sameSite')})",
              {"url": driver.current_url, "rows": driver.execute_script(rows),
               "said": driver.find_element("id", "said").text if driver.find_elements("id", "said") else ""})
    finally:
        driver.quit()


def phone_push(check, driver, web, payload):
    """The phone's notifications: "Notify this phone" offered, the panel's service worker registered; the payload the
    shore pushed (as http_ece decrypted it) delivered to that worker by chromium's DevTools, as a push service would,
    and shown as a notification with the alert's words, tagged by boat and kind. (Subscribing itself needs Google's
    push service, which a check on loopback does not reach: the shore's side of it is checked with http_ece.)"""
    origin = f"http://127.0.0.1:{web}"
    driver.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["notifications"], "origin": origin})
    offered = wait_for(lambda: driver.execute_script(
        "const b = document.querySelector('.fleet-push'); return b ? b.textContent : ''") == "Notify this phone", 15)
    ready = driver.execute_script("return navigator.serviceWorker.ready.then(r => !!r.active)")
    driver.execute_cdp_cmd("ServiceWorker.enable", {})
    shown = "return navigator.serviceWorker.ready.then(r => r.getNotifications()).then(n => n.map(x => [x.title, " \
            "x.body, x.tag]))"
    # The page's one registration is chromium's first of this fresh profile (id 0). A push delivered through DevTools
    # just after ServiceWorker.enable is sometimes lost before the worker is started (3 of 5 runs here): delivered
    # again every 2 s until shown, 8 times at most.
    tried = []
    for _ in range(8):
        try:
            driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage", {
                "origin": origin, "registrationId": "0", "data": json.dumps(payload or {})})
            tried.append("delivered")
        except Exception as e:  # noqa: BLE001 - said in the check's detail
            tried.append(str(e)[:80])
        if wait_for(lambda: driver.execute_script(shown), 2, step=0.5):
            break
    notes = driver.execute_script(shown)
    state = driver.execute_script("return navigator.serviceWorker.getRegistrations().then(rs => [Notification.permission,"
                                  " rs.map(r => [r.scope, !!r.active, r.active && r.active.state])])")
    check(offered and ready and payload and notes == [[payload["title"], payload["body"],
                                                        f"{payload['boat']}/{payload['kind']}"]],
          f"on her phone: \"Notify this phone\" offered, the service worker registered, the shore's push shown as a "
          f"notification: {notes}", {"payload": payload, "tried": tried, "state": state})


def phone_alert(check, web, name, password, words, payload):
    """The owner on a phone: logged in, the alert on the Fleet layout, acknowledged with its button, the shore's push
    shown; then Log out."""
    driver = chromium(390, 844)
    try:
        driver.get(f"http://127.0.0.1:{web}/login.html")
        wait_for(lambda: driver.find_elements("id", "password"), 10)
        driver.find_element("id", "name").send_keys(name)
        driver.find_element("id", "password").send_keys(password)
        driver.find_element("id", "submit").click()
        shown = "return [...document.querySelectorAll('.fleet-alert')].map(p => p.innerText)"
        seen = wait_for(lambda: any(words in t for t in driver.execute_script(shown) or []), 30, step=0.5)
        button = "const p = [...document.querySelectorAll('.fleet-alert')].find(p => p.innerText.includes(arguments[0]));" \
                 " const b = p && p.querySelector('.fleet-ack'); if (b) b.click(); return !!b;"
        tapped = driver.execute_script(button, words)
        acknowledged = wait_for(lambda: any(words in t and "seen" in t for t in driver.execute_script(shown) or []),
                                15, step=0.5)
        texts = driver.execute_script(shown)
        # Her boat's own layouts: the boat's alarm in the alarm bar as the boat says it, with no button (nothing
        # ashore acknowledges it on her).
        driver.execute_script("window.telltale.show(1)")
        bar = "const a = document.getElementById('alarms'); return a && !a.hidden ? [a.innerText," \
              " a.querySelectorAll('button').length] : null"
        boat_alarm = wait_for(lambda: (driver.execute_script(bar) or [""])[0] != "", 20, step=0.5)
        lines = (driver.execute_script(bar) or [""])[0].split("\n")
        check(boat_alarm and driver.execute_script(bar)[1] == 0 and len(set(lines)) == len(lines),
              f"{name}'s boat from home: her own alarm in the alarm bar once, read-only (no button): "
              f"{driver.execute_script(bar)}")
        driver.execute_script("window.telltale.show(0)")
        phone_push(check, driver, web, payload)
        driver.execute_script("document.querySelector('.fleet-logout').click()")
        out = wait_for(lambda: driver.current_url.endswith("/login.html"), 10)
        check(seen and tapped and acknowledged and out,
              f"{name} on a phone (390 px): the alert on the Fleet layout, acknowledged with its button (now 'seen'), "
              "then Log out back to the login page", {"alerts": texts, "url": driver.current_url})
        return acknowledged
    finally:
        driver.quit()


def race_page(check, web):
    """The public race page in chromium with no session: the entered boat in its list, its marker on the chart."""
    driver = chromium(390, 844)
    try:
        driver.get(f"http://127.0.0.1:{web}/race.html")
        rows = "return [...document.querySelectorAll('.race-list tbody tr')].map(r => r.dataset.boat)"
        listed = wait_for(lambda: driver.execute_script(rows) == ["cargo"], 20, step=0.5)
        markers = driver.execute_script("return document.querySelectorAll('.leaflet-interactive').length")
        said = driver.execute_script("return document.getElementById('race-time').textContent")
        check(listed and markers >= 1 and "1 min ago" in said,
              f"the race page in chromium without a login: cargo listed and drawn ({markers} shapes), '{said}'",
              {"rows": driver.execute_script(rows), "url": driver.current_url})
    finally:
        driver.quit()
