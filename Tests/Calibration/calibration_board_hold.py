"""`auto = true` holding back what the newest day says is worse (calibration_board_check.py, part 6).

A real gateway keeps two days in its history: a simulated zig-zag of short beats (450 m, a tack every two and a half
minutes) sailed with the masthead unit reading the close-hauled apparent wind angle 5° wider (`--upwash-error
5,0,0`), then, the next day, the same course with the unit refitted (true instruments; the log's dates moved a day
on). The logs play at 10 times their speed, the engine's damping off (it runs in the loop's own seconds, and at that
speed would smooth the tacks out of the history). Learning by itself over both,
it learns the upwash of the first day, and its check on the newest day (the calibration learnt without it, judged on
its tacks) says that upwash would have made the second day's tacks jump where they did not: it applies nothing, says
why (GET, the gateway's log, the settings page in chromium), and the report's check is the one `telltale calibrate
sailing --history` makes of the same history.
"""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Interop"))
from browser import page_texts  # noqa: E402
from support import Gateway, free_port, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402
from calibration_polar import write_route  # noqa: E402
from calibration_reach_by_wind import next_day  # noqa: E402
from piloted_boat import destination  # noqa: E402


SPEED = 10


def beats(path):
    """Sixteen beats of 450 m at 155° and 295° (the simulator's wind from 225°: a tack between each two)."""
    point, points = (50.60, -1.20), [(50.60, -1.20)]
    for i in range(16):
        point = destination(*point, 155 if i % 2 == 0 else 295, 450)
        points.append(point)
    write_route(path, points, "Beats", "B")


def play(binary, work, log, port, auto):
    config = f"""status_line = false
state_file = "{work}/hold/state.toml"
[[input]]
name = "zigzag"
url = "file:{log}"
speed = {SPEED}
[web]
listen = "127.0.0.1:{port}"
put_networks = ["127.0.0.1/32"]
[damping]
apparent_wind = 0
true_wind = 0
wind_direction = 0
speed_through_water = 0
speed_over_ground = 0
course_over_ground = 0
""" + ("[calibration]\nauto = true\nauto_hours = 0.03\n" if auto else "")
    return Gateway(binary, config, work=work, name="hold-auto" if auto else "hold").start(wait=[port])


def hold_check(binary, check, work):
    route = os.path.join(work, "beats.gpx")
    beats(route)
    logs = {}
    for name, seconds, errors in (("wide", 2000, ["--upwash-error", "5,0,0"]), ("true", 1500, [])):
        out = os.path.join(work, "hold-" + name)
        subprocess.run([binary, "simulate", "--route", route, "--output", out, "--duration", str(seconds),
                        "--wind-speed", "12", *errors], check=True, capture_output=True, timeout=300)
        logs[name] = os.path.join(out, "voyage.nmea")
    next_day(logs["true"], os.path.join(work, "hold-next-day.nmea"))
    os.makedirs(os.path.join(work, "hold"))
    port = free_port()
    first = play(binary, work, logs["wide"], port, auto=False)
    time.sleep(2000 / SPEED + 5)  # the first day into the history, once
    first.stop()
    gateway = play(binary, work, os.path.join(work, "hold-next-day.nmea"), port, auto=True)

    def state():
        status, body = HTTP(port, timeout=20).text("/telltale/v1/calibration")
        return json.loads(body) if status == 200 else {}

    # The first learning by itself 108 s after the start (some 1,080 s of the day's log, seven tacks), then each 108 s.
    held = wait_for(lambda: state().get("auto_held") is not None, 300, step=2)
    now = state()
    why = (now.get("auto_held") or {}).get("why", "")
    newest = (now.get("report") or {}).get("newest_days") or {}
    applied = now.get("applied") or {}
    cli = subprocess.run([binary, "calibrate", "sailing", "--history", os.path.join(work, "hold", "history"), "--json"],
                         capture_output=True, text=True, timeout=120)
    again = (json.loads(cli.stdout) if cli.stdout.startswith("{") else {}).get("newest_days") or {}
    check(held and why.startswith(f"learnt without the newest day, it made their {newest.get('tacks')} tacks' true "
                                  "wind jump")
          and newest.get("says") == "worse" and newest.get("tacks", 0) >= 5
          and newest.get("median_jump_calibrated", 0) > newest.get("median_jump_uncalibrated", 99) + 4
          and applied.get("upwash_upwind") == 0 and applied.get("awa_offset") == 0
          and now.get("auto_applied") is None and "not applied: learnt without the newest day" in gateway.log()
          and again.get("from") == newest.get("from") and again.get("tacks") == newest.get("tacks"),
          f"auto = true holds back what the newest day says is worse: the first day's upwash (5° wider) learnt, "
          f"judged on the next day's {newest.get('tacks')} tacks (the unit refitted): median jump "
          f"{newest.get('median_jump_uncalibrated', 0):.1f}° without, {newest.get('median_jump_calibrated', 0):.1f}° "
          f"with it; nothing applied, and why said: \"{why}\" (the same check as `calibrate sailing --history`: "
          f"{again.get('tacks')} tacks from {again.get('from')})", gateway.log()[-600:])
    def shown_bias(text, newest):
        """The page's "tack bias U° and C°" of the check, each within the rounding of the report's."""
        found = re.search(r"tack bias (-?[0-9.]+)° and (-?[0-9.]+)°", text)
        return found is not None and all(
            abs(float(found.group(i + 1)) - (newest.get(key) or 0)) <= 0.051
            for i, key in enumerate(("bias_uncalibrated", "bias_calibrated")))

    auto_text, bias_text = page_texts(f"http://127.0.0.1:{port}/settings.html",
                                      ["calibration-auto", "calibration-bias"], lambda text: "not applied" in text)
    check("and not applied: learnt without the newest day" in auto_text
          and "Checked on the newest day" in bias_text and ": worse (not applied by itself)." in bias_text
          and shown_bias(bias_text, newest),
          f"the settings page says it in chromium: \"{auto_text[-160:]}\" \"{bias_text[-200:]}\"")
    gateway.stop()
