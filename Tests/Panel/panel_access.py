"""The panel's access on a gateway that trusts no browser's network (panel_check.py): a tablet's panel is read only and
says so and asks for access; a phone asks as admin and is approved by the Pi; the phone's panel approves the tablet,
whose race button then works; revoked from the phone, the tablet is read only again; the settings page opens for the
admin phone alone."""
import http.client
import json
import tempfile

from selenium.webdriver.common.by import By

from support import bench_profile, free_port, Gateway


def access(binary, check, driver, url, wait):
    """A tablet asks, the Pi approves a phone, the phone the tablet; revoked, read only again."""
    # ---- Access: a gateway that trusts no browser; a tablet asks, the Pi approves a phone, the phone the tablet ----
    access_nmea, access_web = free_port(), free_port()
    strict = bench_profile(access_nmea, access_web).replace("[web]\n", '[web]\nput_networks = ["127.0.0.2/32"]\n', 1)
    assert 'put_networks = ["127.0.0.2/32"]' in strict
    strict_gateway = Gateway(binary, strict, work=tempfile.mkdtemp(), name="access").start(wait=[access_web])
    tablet = f"http://127.0.0.1:{access_web}/"  # one origin, its own storage: the crew's tablet
    phone = f"http://localhost:{access_web}/"  # another: the skipper's phone

    def on_the_pi(method, path, body=None):
        """The Pi itself (the one address put_networks trusts), as `telltale access` is."""
        connection = http.client.HTTPConnection("127.0.0.1", access_web, timeout=5, source_address=("127.0.0.2", 0))
        connection.request(method, path, body=body)
        response = connection.getresponse()
        answer = response.status, response.read().decode()
        connection.close()
        return answer

    def race_running():
        return on_the_pi("GET", "/signalk/v1/api/vessels/self/navigation/racing/timeToStart")[0] == 200

    def toast_says(words, seconds=5):
        return wait(lambda: words in driver.find_element(By.ID, "toast").text, seconds, 0.05)

    def fresh(url, layout):
        driver.get(url)
        driver.execute_script(f"localStorage.clear(); localStorage.setItem('telltale.layout', '{layout}')")
        driver.get(url)
        return wait(lambda: driver.find_element(By.ID, "connection").text == "live", 15)

    def access_state():
        return driver.find_element(By.ID, "access-state").text

    def menu():
        if not driver.find_element(By.ID, "menu").get_attribute("open"):
            driver.find_element(By.ID, "menu-button").click()

    def ask(name, admin):
        menu()
        wait(lambda: driver.find_element(By.ID, "access-request").is_displayed(), 5)
        field = driver.find_element(By.ID, "access-name")
        field.clear()
        field.send_keys(name)
        if admin:
            driver.find_element(By.ID, "access-admin").click()
        driver.find_element(By.ID, "access-request").click()
        return wait(lambda: access_state().startswith("Waiting for approval"), 5)

    def press(button):
        if driver.find_element(By.ID, "menu").get_attribute("open"):
            driver.find_element(By.ID, "menu-close").click()
        driver.find_element(By.CSS_SELECTOR, f'button[data-race="{button}"]').click()

    check(fresh(tablet, 1), "access: the tablet's panel is live on a gateway that trusts no browser")
    press("start")
    check(toast_says("Read only") and not race_running(),
          "the tablet's race button, unapproved: the panel says read only, and the timer does not start")
    menu()
    check(wait(lambda: access_state().startswith("Read only"), 5), f"its menu says read only ({access_state()!r})")
    check(ask("Crew tablet", admin=False), f"it asks for access and waits ({access_state()!r})")
    check(fresh(phone, 1) and ask("Skipper", admin=True), "the skipper's phone asks for access as admin")
    status, listing = on_the_pi("GET", "/telltale/v1/access")
    waiting = {r["description"]: r for r in json.loads(listing).get("requests", []) if r["state"] == "pending"} \
        if status == 200 else {}
    check(set(waiting) == {"Crew tablet", "Skipper"} and waiting["Skipper"]["permissions"] == "admin"
          and waiting["Crew tablet"]["permissions"] == "readwrite", "the Pi lists both requests", listing[:400])
    status, _ = on_the_pi("PUT", "/telltale/v1/access/requests/" + waiting.get("Skipper", {}).get("requestId", "x"),
                          json.dumps({"value": "approve"}))
    check(status == 200, "the Pi approves the phone")
    approved = wait(lambda: access_state().startswith("Approved as \u201cSkipper\u201d"), 10)
    check(approved, f"the phone's panel sees itself approved within 10 s ({access_state()!r})")
    row = None
    if wait(lambda: "Crew tablet" in driver.find_element(By.ID, "access-list").text, 10):
        row = [d for d in driver.find_elements(By.CSS_SELECTOR, "#access-list div") if "Crew tablet" in d.text]
    check(bool(row), "the phone's panel lists the tablet's request",
          driver.find_element(By.ID, "access-list").text)
    if row:
        [b for b in row[0].find_elements(By.TAG_NAME, "button") if b.text == "Approve"][0].click()
    check(toast_says("approved"), "and approves it from there")
    driver.get(tablet)
    check(wait(lambda: driver.find_element(By.ID, "connection").text == "live", 15), "back on the tablet")
    menu()
    check(wait(lambda: access_state().startswith("Approved as \u201cCrew tablet\u201d"), 10),
          f"the tablet's panel has its token ({access_state()!r})")
    press("start")
    check(wait(race_running, 5), "its race button now starts the timer")
    driver.get(phone)
    menu()
    revoke = None
    if wait(lambda: "Crew tablet: readwrite" in driver.find_element(By.ID, "access-list").text, 10):
        revoke = [d for d in driver.find_elements(By.CSS_SELECTOR, "#access-list div") if "Crew tablet" in d.text]
    if revoke:
        [b for b in revoke[0].find_elements(By.TAG_NAME, "button") if b.text == "Revoke"][0].click()
    check(bool(revoke) and toast_says("revoked"), "the phone revokes the tablet")
    driver.get(phone + "settings.html")
    check(wait(lambda: "[web]" in driver.find_element(By.ID, "text").get_attribute("value"), 10),
          "the admin phone opens the gateway's settings")
    driver.get(tablet)
    wait(lambda: driver.find_element(By.ID, "connection").text == "live", 15)
    press("reset")
    check(toast_says("Read only") or toast_says("revoked"), "revoked: the tablet's reset is refused")
    forgotten = wait(lambda: driver.execute_script("return localStorage.getItem('telltale.token')") is None, 10)
    check(race_running() and forgotten, "the timer runs on, and the tablet has forgotten its token")
    driver.get(tablet + "settings.html")
    check(wait(lambda: "may not see or change" in driver.find_element(By.ID, "result").text, 10),
          "the tablet's settings page says it may not", driver.find_element(By.ID, "result").text)
    strict_gateway.stop()
    driver.get(url)
