"""A calibration too large for the day, on board (calibration_board_check.py, part 7).

A real gateway plays a simulated light-air zig-zag (4 kn of wind, the boat nearly as fast: the triangle at its most
ill-conditioned) with a calibration beside its state file that turns the masthead unit by -8° and reads the log 35 %
faster. All of it would turn the true wind angle by more than 12° on most seconds, so the engine applies it only as
far as it keeps within 12° of the instruments' own, and says so: /telltale/v1/calibration's `limited_seconds` grows
(in the gateway's own seconds, never more than it has run; `telltale replay` of the log with the same file says a
quarter of it or more too), the
gateway's log gives the notice once, and the settings page says it under its Calibration section in chromium.
"""
import json
import os
import subprocess
import time

from support import Gateway, free_port, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402
from calibration_board_hold import beats  # noqa: E402
from calibration_morning_after import in_part  # noqa: E402

SPEED = 10
SECONDS = 600


def limited_check(binary, check, work, chromium):
    route = os.path.join(work, "limited-beats.gpx")
    beats(route)
    out = os.path.join(work, "limited")
    subprocess.run([binary, "simulate", "--route", route, "--output", out, "--duration", str(SECONDS),
                    "--wind-speed", "4"], check=True, capture_output=True, timeout=300)
    log = os.path.join(out, "voyage.nmea")
    os.makedirs(os.path.join(work, "limited-state"))
    applied = os.path.join(work, "limited-state", "calibration.toml")
    with open(applied, "w") as f:
        f.write("[sailing]\nawa_offset = -8\nspeed_factor = 1.35\n")
    whole = in_part(binary, applied, [log])
    port = free_port()
    started = time.monotonic()
    gateway = Gateway(binary, f"""status_line = false
state_file = "{work}/limited-state/state.toml"
[[input]]
name = "light"
url = "file:{log}"
speed = {SPEED}
[web]
listen = "127.0.0.1:{port}"
""", work=work, name="limited").start(wait=[port])

    def limited():
        status, body = HTTP(port, timeout=10).text("/telltale/v1/calibration")
        return json.loads(body).get("limited_seconds", -1) if status == 200 else -1

    grew = wait_for(lambda: limited() >= 10, 50, step=1)
    seconds = limited()
    running = time.monotonic() - started
    check(grew and 10 <= seconds <= running and whole > SECONDS / 4
          and gateway.log().count("calibration: applied only in part") == 1,
          f"a calibration of -8° and a log × 1.35 in 4 kn of wind: applied only in part for {seconds:.0f} s of the "
          f"gateway's {running:.0f} s (its own seconds, the log playing at {SPEED} ×; `telltale replay` says {whole} s "
          f"of the whole {SECONDS} s log), the notice logged once", gateway.log()[-400:])
    driver = chromium(1024, 1400)
    try:
        driver.get(f"http://127.0.0.1:{port}/settings.html")
        said = "return document.getElementById('calibration-limited').textContent"
        wait_for(lambda: (driver.execute_script(said) or "").startswith("Applied only in part for"), 15)
        text = driver.execute_script(said) or ""
        check(text.startswith("Applied only in part for") and "more than 12°" in text,
              f"the settings page says it in chromium: \"{text}\"")
    finally:
        driver.quit()
    gateway.stop()
