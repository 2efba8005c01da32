"""The autopilot on the panel (#41), in Debian's chromium through selenium, against `telltale run`.

    autopilot_panel_check.py BINARY

1. The recorded EV-1/ACU200 bus (../shared/fixtures/n2k/candumpSample3.txt) as the gateway's bus: the Autopilot
   layout's tile shows the pilot's state as PyPI's nmea2000 reads the recording's 65379.
2. A pilot behind a Yacht Devices gateway (Tests/Interop/autopilot_bus.py: the recorded bus, the pilot answering only
   what nmea2000 reads as its commands): a short tap on Engage sends nothing; a long press engages, shown once the
   pilot says auto; +10 moves the target shown by 10°; a pilot that does not take a command is shown "not taken";
   Standby; the pilot dropping to standby by itself puts its alarm on the page's alarm bar.
Prints `autopilot-panel-check: N passed, M failed`.
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Interop"))
from autopilot_bus import PilotBus  # noqa: E402
from support import ROOT, Checks, Gateway, free_port  # noqa: E402

from browser import chromium  # noqa: E402
from nmea2000.decoder import NMEA2000Decoder  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

binary = sys.argv[1]
check = Checks("autopilot-panel-check")
recording = os.path.join(ROOT, "..", "shared", "fixtures", "n2k", "candumpSample3.txt")

decoder = NMEA2000Decoder()
modes = []
for line in open(recording):
    try:
        message = decoder.decode(line.strip()) if line.startswith("(") else None
    except Exception:  # noqa: BLE001 (a line the reference cannot read is not ours to judge)
        continue
    if message is not None and message.PGN == 65379:
        modes.append(str({f.id: f.value for f in message.fields}.get("pilotMode")))
recorded = "STANDBY" if modes and modes[-1] == "Standby" else "AUTO"


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


driver = chromium(390, 844)
gateways = []


def tile_text(q):
    return driver.find_element(By.CSS_SELECTOR, f'.tile[data-id="pilot"] [data-q="{q}"]').text.strip()


def open_layout(web):
    url = f"http://127.0.0.1:{web}/"
    driver.get(url)
    index = driver.execute_script("return window.telltale.layouts().findIndex(l => l.name === 'Autopilot')")
    driver.execute_script(f"localStorage.clear(); localStorage.setItem('telltale.layout', '{index}');")
    driver.get(url)
    return index


try:
    web = free_port()
    gateway = Gateway(binary, f"""status_line = false
[n2k]
bus = "file://{recording}"
listen_only = true
[web]
listen = "127.0.0.1:{web}"
""", work=tempfile.mkdtemp(prefix="telltale-pilot-panel-")).start(wait=[web])
    gateways.append(gateway)
    index = open_layout(web)
    check(index is not None and index >= 0, "an Autopilot layout among the presets", index)
    shown = wait(lambda: tile_text("pilot-state") == recorded, 20)
    check(shown, f"the recorded pilot's state on the tile: {tile_text('pilot-state')!r}, the recording's 65379 says "
          f"{modes[-1] if modes else '?'} (nmea2000)")
    gateway.stop()

    bus = PilotBus(recording)
    bus.start()
    web = free_port()
    gateway = Gateway(binary, f"""status_line = false
[n2k]
bus = "ydraw+tcp://127.0.0.1:{bus.port}"
[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
""", work=tempfile.mkdtemp(prefix="telltale-pilot-panel-")).start(wait=[web])
    gateways.append(gateway)
    open_layout(web)
    check(wait(lambda: tile_text("pilot-state") == "STANDBY", 20), "the pilot behind the gateway: STANDBY",
          tile_text("pilot-state"))
    engage = driver.find_element(By.CSS_SELECTOR, "button.pilot-engage")
    with bus.lock:
        before = len(bus.sent)
    engage.click()
    time.sleep(1.5)
    with bus.lock:
        sent = len(bus.sent) - before
    check(sent == 0 and tile_text("pilot-state") == "STANDBY", "a tap on Engage sends nothing (a long press engages)",
          sent)
    ActionChains(driver).click_and_hold(engage).pause(1.2).release().perform()
    engaged = wait(lambda: tile_text("pilot-state") == "AUTO · COMPASS", 8)
    check(engaged and bus.mode == 64, "a long press: the pilot engaged (65379 auto, read by nmea2000), the tile says "
          "AUTO · COMPASS once the pilot does", tile_text("pilot-state"))
    check(wait(lambda: tile_text("pilot-outcome") == "taken", 5), "and the command shows as taken",
          tile_text("pilot-outcome"))
    target = tile_text("pilot-target")
    driver.find_element(By.CSS_SELECTOR, 'button[data-pilot="adjust"][data-value="10"]').click()
    moved = wait(lambda: tile_text("pilot-target") == f"{(int(target) + 10) % 360:03d}", 8)
    check(moved and tile_text("pilot-outcome") == "taken", f"+10: the target shown goes from {target} to "
          f"{tile_text('pilot-target')} (the pilot's own 65360), taken", tile_text("pilot-outcome"))
    bus.ignore = True
    driver.find_element(By.CSS_SELECTOR, 'button[data-pilot="adjust"][data-value="1"]').click()
    check(wait(lambda: tile_text("pilot-outcome") == "sent", 3) and wait(lambda: tile_text("pilot-outcome") == "not taken", 10),
          "a pilot that does not take +1: sent, then not taken", tile_text("pilot-outcome"))
    bus.ignore = False
    driver.find_element(By.CSS_SELECTOR, 'button[data-pilot="disengage"]').click()
    check(wait(lambda: tile_text("pilot-state") == "STANDBY", 8), "Standby: one tap, STANDBY once the pilot says so",
          tile_text("pilot-state"))
    ActionChains(driver).click_and_hold(driver.find_element(By.CSS_SELECTOR, "button.pilot-engage")).pause(1.2) \
        .release().perform()
    wait(lambda: tile_text("pilot-state") == "AUTO · COMPASS", 8)
    time.sleep(5.5)
    with bus.lock:
        bus.mode = 0
    alarm = wait(lambda: "Autopilot" in driver.find_element(By.ID, "alarms").text, 10)
    check(alarm, "the pilot dropping to standby by itself: its alarm on the page's alarm bar",
          driver.find_element(By.ID, "alarms").text)
    width = driver.execute_script(
        "return Math.min(...[...document.querySelectorAll('.pilot-key')].map(b => b.getBoundingClientRect().height))")
    check(width >= 44, f"every key at least 44 px high on a 390 px phone ({width:.0f} px)")
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    check(not errors, "no error in the page's console", errors[:3])
    bus.stopped = True
finally:
    driver.quit()
    for g in gateways:
        g.stop()
check.finish()
