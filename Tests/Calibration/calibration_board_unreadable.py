"""A configured calibration file that cannot be read, on board (calibration_board_check.py, part 8).

`[calibration] file` names a file broken by hand (an offset of 25°, which the reader refuses) or cut short by the
card. The gateway must still start and compute: it says why in its log, runs the wind and the log uncalibrated, and
says it on /telltale/v1/calibration (`unreadable`) and on the settings page in chromium, until the crew takes the file
off (DELETE). Where the sailor can still mend it, `check-config` names it (exit status 3: the gateway runs without it)
and `replay --config` refuses it. Until 2026-11-30 such a file stopped the gateway from starting at all, and the
weather's and the tides' imports with it.
"""
import json
import os
import socket
import subprocess
import time

from browser import page_texts  # noqa: E402
from support import Gateway, free_port  # noqa: E402
from webclient import HTTP  # noqa: E402
from calibration_board_hold import beats  # noqa: E402

BROKEN = {
    "refused": "[sailing]\nawa_offset = 25\nspeed_factor = 1.05\n",
    "cut short": "# Telltale's calibration\n[sailing]\nawa_offset = -4.30  # \xb1 0.41 from 76, sure\nupwash_tws = [6.8, 12",
}


def computed_wind(port, seconds):
    """The MWV T sentences a client on the gateway's TCP output reads in `seconds`."""
    lines = []
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
            client.settimeout(1)
            end, data = time.monotonic() + seconds, b""
            while time.monotonic() < end:
                try:
                    data += client.recv(65536)
                except socket.timeout:
                    continue
            lines = [line for line in data.decode("ascii", "replace").split("\r\n") if ",T," in line and "MWV" in line]
    except OSError:
        pass
    return lines


def unreadable_check(binary, check, work):
    route = os.path.join(work, "unreadable-beats.gpx")
    beats(route)
    out = os.path.join(work, "unreadable")
    subprocess.run([binary, "simulate", "--route", route, "--output", out, "--duration", "600", "--wind-speed", "12"],
                   check=True, capture_output=True, timeout=300)
    for name, text in BROKEN.items():
        state = os.path.join(work, "unreadable-" + name.replace(" ", "-"))
        os.makedirs(state)
        applied = os.path.join(state, "boat-calibration.toml")
        with open(applied, "w", encoding="latin-1") as f:
            f.write(text)
        web, nmea = free_port(), free_port()
        config = f"""status_line = false
state_file = "{state}/state.toml"
[[input]]
name = "beats"
url = "file:{out}/voyage.nmea"
speed = 5
[[output]]
name = "plotter"
url = "tcp://127.0.0.1:{nmea}"
computed = true
[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
[calibration]
file = "{applied}"
"""
        gateway = Gateway(binary, config, work=work, name="unreadable-" + name.replace(" ", "-")).start(wait=[web, nmea])
        sentences = computed_wind(nmea, 4)
        status, body = HTTP(web, timeout=10).text("/telltale/v1/calibration")
        said = json.loads(body) if status == 200 else {}
        reason = said.get("unreadable") or ""
        check(gateway.alive() and len(sentences) >= 5 and said.get("applied", {}).get("awa_offset") == 0
              and reason and applied in reason
              and "the wind and the log run uncalibrated" in gateway.log(),
              f"a calibration file {name}: the gateway runs and computes ({len(sentences)} MWV T in 4 s), "
              f"uncalibrated, and says why: \"{reason[:120]}\"", gateway.log()[-600:])
        checked = subprocess.run([binary, "check-config", gateway.config], capture_output=True, text=True, timeout=60)
        replayed = subprocess.run([binary, "replay", "--fast", "--config", gateway.config, f"{out}/voyage.nmea"],
                                  capture_output=True, text=True, timeout=60)
        check(checked.returncode == 3 and "[calibration]" in checked.stderr and applied in checked.stderr
              and replayed.returncode == 66 and applied in replayed.stderr,
              f"check-config names it (exit {checked.returncode}: \"{checked.stderr.strip()[-120:]}\") and replay "
              f"--config refuses it (exit {replayed.returncode})", checked.stderr + replayed.stderr)
        if name == "refused":
            text, = page_texts(f"http://127.0.0.1:{web}/settings.html", ["calibration-limited"],
                               lambda text: "cannot be read" in text)
            check(text.startswith("The calibration file cannot be read (") and "awa_offset" in text
                  and "run uncalibrated until one is applied or it is cleared" in text,
                  f"the settings page says it in chromium: \"{text[:160]}\"")
            status, body = HTTP(web, timeout=10).text("/telltale/v1/calibration", method="DELETE", body=b"")
            off = json.loads(body) if status == 200 else {}
            check(status == 200 and "unreadable" not in off and not os.path.exists(applied)
                  and os.path.exists(applied + ".previous") and gateway.alive(),
                  "DELETE takes the broken file off (kept beside it as the one before) and the page no longer says it",
                  body[:200])
        gateway.stop()
