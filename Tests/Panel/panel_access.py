"""The panel's access on a gateway that trusts no browser's network (panel_check.py): a tablet's panel is read only and
says so and asks for access; a phone asks as admin and is approved by the Pi; the phone's panel approves the tablet,
whose race button then works; revoked from the phone, the tablet is read only again; the settings page opens for the
admin phone alone."""
import http.client
import json
import tempfile

from selenium.webdriver.common.by import By

from support import bench_profile, free_port, Gateway


class Devices:
    """A gateway that trusts only the Pi's own address (127.0.0.2), and two browsers' origins on it: the crew's tablet
    (127.0.0.1) and the skipper's phone (localhost), each with its own storage."""

    def __init__(self, binary, check, driver, wait):
        self.check, self.driver, self.wait = check, driver, wait
        nmea, self.web = free_port(), free_port()
        strict = bench_profile(nmea, self.web).replace("[web]\n", '[web]\nput_networks = ["127.0.0.2/32"]\n', 1)
        assert 'put_networks = ["127.0.0.2/32"]' in strict
        self.gateway = Gateway(binary, strict, work=tempfile.mkdtemp(), name="access").start(wait=[self.web])
        self.tablet = f"http://127.0.0.1:{self.web}/"
        self.phone = f"http://localhost:{self.web}/"

    def on_the_pi(self, method, path, body=None):
        """The Pi itself (the one address put_networks trusts), as `telltale access` is."""
        connection = http.client.HTTPConnection("127.0.0.1", self.web, timeout=5, source_address=("127.0.0.2", 0))
        connection.request(method, path, body=body)
        response = connection.getresponse()
        answer = response.status, response.read().decode()
        connection.close()
        return answer

    def race_running(self):
        return self.on_the_pi("GET", "/signalk/v1/api/vessels/self/navigation/racing/timeToStart")[0] == 200

    def toast_says(self, words, seconds=5):
        return self.wait(lambda: words in self.driver.find_element(By.ID, "toast").text, seconds, 0.05)

    def fresh(self, url, layout):
        self.driver.get(url)
        self.driver.execute_script(f"localStorage.clear(); localStorage.setItem('telltale.layout', '{layout}')")
        self.driver.get(url)
        return self.wait(lambda: self.driver.find_element(By.ID, "connection").text == "live", 15)

    def access_state(self):
        return self.driver.find_element(By.ID, "access-state").text

    def menu(self):
        if not self.driver.find_element(By.ID, "menu").get_attribute("open"):
            self.driver.find_element(By.ID, "menu-button").click()

    def ask(self, name, admin):
        self.menu()
        self.wait(lambda: self.driver.find_element(By.ID, "access-request").is_displayed(), 5)
        field = self.driver.find_element(By.ID, "access-name")
        field.clear()
        field.send_keys(name)
        if admin:
            self.driver.find_element(By.ID, "access-admin").click()
        self.driver.find_element(By.ID, "access-request").click()
        return self.wait(lambda: self.access_state().startswith("Waiting for approval"), 5)

    def press(self, button):
        if self.driver.find_element(By.ID, "menu").get_attribute("open"):
            self.driver.find_element(By.ID, "menu-close").click()
        self.driver.find_element(By.CSS_SELECTOR, f'button[data-race="{button}"]').click()


def access(binary, check, driver, url, wait):
    """A tablet asks, the Pi approves a phone, the phone the tablet; revoked, read only again."""
    d = Devices(binary, check, driver, wait)
    asked(d)
    approved_and_revoked(d)
    d.gateway.stop()
    driver.get(url)


def asked(d):
    """Unapproved, the tablet is read only; it asks, the phone asks as admin, the Pi lists both and approves the phone."""
    d.check(d.fresh(d.tablet, 1), "access: the tablet's panel is live on a gateway that trusts no browser")
    d.press("start")
    d.check(d.toast_says("Read only") and not d.race_running(),
          "the tablet's race button, unapproved: the panel says read only, and the timer does not start")
    d.menu()
    d.check(d.wait(lambda: d.access_state().startswith("Read only"), 5), f"its menu says read only ({d.access_state()!r})")
    d.check(d.ask("Crew tablet", admin=False), f"it asks for access and waits ({d.access_state()!r})")
    d.check(d.fresh(d.phone, 1) and d.ask("Skipper", admin=True), "the skipper's phone asks for access as admin")
    status, listing = d.on_the_pi("GET", "/telltale/v1/access")
    waiting = {r["description"]: r for r in json.loads(listing).get("requests", []) if r["state"] == "pending"} \
        if status == 200 else {}
    d.check(set(waiting) == {"Crew tablet", "Skipper"} and waiting["Skipper"]["permissions"] == "admin"
          and waiting["Crew tablet"]["permissions"] == "readwrite", "the Pi lists both requests", listing[:400])
    status, _ = d.on_the_pi("PUT", "/telltale/v1/access/requests/" + waiting.get("Skipper", {}).get("requestId", "x"),
                          json.dumps({"value": "approve"}))
    d.check(status == 200, "the Pi approves the phone")
    approved = d.wait(lambda: d.access_state().startswith("Approved as \u201cSkipper\u201d"), 10)
    d.check(approved, f"the phone's panel sees itself approved within 10 s ({d.access_state()!r})")


def approved_and_revoked(d):
    """The phone approves the tablet, whose race button then works; the phone revokes it: read only again."""
    row = None
    if d.wait(lambda: "Crew tablet" in d.driver.find_element(By.ID, "access-list").text, 10):
        row = [e for e in d.driver.find_elements(By.CSS_SELECTOR, "#access-list div") if "Crew tablet" in e.text]
    d.check(bool(row), "the phone's panel lists the tablet's request",
          d.driver.find_element(By.ID, "access-list").text)
    if row:
        [b for b in row[0].find_elements(By.TAG_NAME, "button") if b.text == "Approve"][0].click()
    d.check(d.toast_says("approved"), "and approves it from there")
    d.driver.get(d.tablet)
    d.check(d.wait(lambda: d.driver.find_element(By.ID, "connection").text == "live", 15), "back on the tablet")
    d.menu()
    d.check(d.wait(lambda: d.access_state().startswith("Approved as \u201cCrew tablet\u201d"), 10),
          f"the tablet's panel has its token ({d.access_state()!r})")
    d.press("start")
    d.check(d.wait(d.race_running, 5), "its race button now starts the timer")
    d.driver.get(d.phone)
    d.menu()
    revoke = None
    if d.wait(lambda: "Crew tablet: readwrite" in d.driver.find_element(By.ID, "access-list").text, 10):
        revoke = [e for e in d.driver.find_elements(By.CSS_SELECTOR, "#access-list div") if "Crew tablet" in e.text]
    if revoke:
        [b for b in revoke[0].find_elements(By.TAG_NAME, "button") if b.text == "Revoke"][0].click()
    d.check(bool(revoke) and d.toast_says("revoked"), "the phone revokes the tablet")
    d.driver.get(d.phone + "settings.html")
    d.check(d.wait(lambda: "[web]" in d.driver.find_element(By.ID, "text").get_attribute("value"), 10),
          "the admin phone opens the gateway's settings")
    d.driver.get(d.tablet)
    d.wait(lambda: d.driver.find_element(By.ID, "connection").text == "live", 15)
    d.press("reset")
    d.check(d.toast_says("Read only") or d.toast_says("revoked"), "revoked: the tablet's reset is refused")
    forgotten = d.wait(lambda: d.driver.execute_script("return localStorage.getItem('telltale.token')") is None, 10)
    d.check(d.race_running() and forgotten, "the timer runs on, and the tablet has forgotten its token")
    d.driver.get(d.tablet + "settings.html")
    d.check(d.wait(lambda: "may not see or change" in d.driver.find_element(By.ID, "result").text, 10),
          "the tablet's settings page says it may not", d.driver.find_element(By.ID, "result").text)
