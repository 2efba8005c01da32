"""Calibration learnt on board (#50): a real `telltale run` playing a day of Irene's log into its history
(../shared/fixtures/calibration, at 20 times its speed), a calibration applied before it started (the file beside the
state file), and /telltale/v1/calibration:

1. GET: the applied calibration as the file says it.
2. POST from an approved device: the learner runs in its own process over the history and reports the same seconds
   of sailing and manoeuvres as `telltale calibrate sailing --history` on the same folder; an unapproved device is
   refused.
3. PUT applies what was learnt at once, without a restart (the file replaced, the one before kept: with nothing sure
   in a quarter of an hour of log, the values applied before are kept); DELETE takes it off at once.
4. The settings page's Calibration section in chromium: a row a value, as applied.
5. `[calibration] auto = true` on a second gateway, playing a simulated course whose compass has a card of 5° sin h
   (`telltale simulate --deviation 0,5,0,0,0`): it learns by itself from its history, applies the card it is sure of
   without a restart, and says what it changed.

    calibration_board_check.py BINARY LOG
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import Checks, Gateway, free_port, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402

binary, log = sys.argv[1:3]
check = Checks("calibration-board-check")
work = tempfile.mkdtemp(prefix="telltale-calibration-board-")
os.makedirs(os.path.join(work, "state"))
APPLIED = os.path.join(work, "state", "calibration.toml")
with open(APPLIED, "w") as f:
    f.write("[sailing]\nawa_offset = -4.5\nspeed_factor = 1.05\n")
web = free_port()
gateway = Gateway(binary, f"""status_line = false
state_file = "{work}/state/state.toml"
[[input]]
name = "irene"
url = "file:{log}"
speed = 20
[web]
listen = "127.0.0.1:{web}"
put_networks = ["127.0.0.1/32"]
""", work=work, name="calibration").start(wait=[web])
http = HTTP(web, timeout=20)

# The second gateway, learning by itself (part 5), plays its course meanwhile.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
from calibration_simulated import race_course  # noqa: E402
race_course(os.path.join(work, "course.gpx"), legs=12, length=400)
subprocess.run([binary, "simulate", "--route", os.path.join(work, "course.gpx"), "--output", os.path.join(work, "card"),
                "--duration", "3000", "--wind-speed", "12", "--gust", "0", "--deviation", "0,5,0,0,0"],
               check=True, capture_output=True, timeout=120)
os.makedirs(os.path.join(work, "auto"))
auto_web = free_port()
auto = Gateway(binary, f"""status_line = false
state_file = "{work}/auto/state.toml"
[[input]]
name = "course"
url = "file:{work}/card/voyage.nmea"
speed = 10
[web]
listen = "127.0.0.1:{auto_web}"
[calibration]
auto = true
auto_hours = 0.05
""", work=work, name="auto").start(wait=[auto_web])


def calibration():
    status, body = http.text("/telltale/v1/calibration")
    return json.loads(body) if status == 200 else {}


now = calibration()
applied = now.get("applied", {})
check(abs(applied.get("awa_offset", 0) + 4.5) < 1e-9 and abs(applied.get("speed_factor", 0) - 1.05) < 1e-9
      and now.get("undo_ready") is True,
      f"GET: the calibration beside the state file applied at start (offset {applied.get('awa_offset')}°, "
      f"log × {applied.get('speed_factor')})", json.dumps(now)[:300])
time.sleep(45)  # some 15 minutes of the log into the history
status, _, answer = HTTP(web).request("POST", "/telltale/v1/calibration", raw=b"", source="127.0.0.5")
check(status in (401, 403), f"an unapproved device may not start the learner ({status})", answer[:200])
status, body = http.text("/telltale/v1/calibration", method="POST", body=b"")
learnt = wait_for(lambda: calibration().get("state") in ("learnt", "failed"), 60, step=0.5)
now = calibration()
report = now.get("report") or {}
cli = subprocess.run([binary, "calibrate", "sailing", "--history", os.path.join(work, "state", "history"), "--json"],
                     capture_output=True, text=True, timeout=60)
alone = json.loads(cli.stdout) if cli.stdout.startswith("{") else {}
check(status == 202 and learnt and now.get("state") == "learnt" and report.get("samples", 0) > 300
      and abs(report.get("samples", 0) - alone.get("samples", -999)) <= 120
      and len(report.get("manoeuvres", [])) == len(alone.get("manoeuvres", [])) and now.get("learnt_ready") is True,
      f"POST: learnt in its own process from the history ({report.get('samples')} s of sailing, "
      f"{len(report.get('manoeuvres', []))} manoeuvres), as `calibrate sailing --history` reads it "
      f"({alone.get('samples')} s)", json.dumps(now)[:400])
learnt_file = open(os.path.join(work, "state", "calibration", "learnt.toml")).read()
polar_path = os.path.join(work, "state", "calibration", "polar.csv")
table = open(polar_path).read().split("\n") if os.path.exists(polar_path) else []
check(table[:1] == ["TWA\\TWS;4;6;8;10;12;14;16;20;25;30"] and len(table) == 21,
      "the boat's polar learnt with it, where the router takes it (calibration/polar.csv beside learnt.toml)",
      "\n".join(table[:5]))
status, body = http.text("/telltale/v1/calibration", method="PUT", body=b"")
after = json.loads(body) if status == 200 else {}
kept = open(APPLIED + ".previous").read() if os.path.exists(APPLIED + ".previous") else ""
learnt_offset = [line.split("=")[1].split("#")[0].strip() for line in learnt_file.split("\n")
                 if line.startswith("awa_offset =")]
check(status == 200 and open(APPLIED).read() == learnt_file and "awa_offset = -4.5" in kept and learnt_offset
      and abs(after.get("applied", {}).get("awa_offset", 99) - float(learnt_offset[0])) < 1e-9
      and "restart" not in gateway.log(),
      f"PUT: the learnt calibration applied at once, no restart (the file replaced, the one before kept): applied "
      f"now {after.get('applied')}", body[:200])
status, body = http.text("/telltale/v1/calibration", method="DELETE", body=b"")
off = json.loads(body) if status == 200 else {}
check(status == 200 and not os.path.exists(APPLIED) and off.get("applied", {}).get("awa_offset") == 0
      and off.get("applied", {}).get("speed_factor") == 1 and off.get("undo_ready") is False
      and calibration().get("applied") == off.get("applied") and "restart" not in gateway.log(),
      f"DELETE: the calibration taken off at once: {off.get('applied')}", body[:200])

from browser import chromium  # noqa: E402
driver = chromium(1024, 1400)
try:
    driver.get(f"http://127.0.0.1:{web}/settings.html")
    shown = wait_for(lambda: driver.execute_script(
        "return document.querySelectorAll('#calibration-values tbody tr').length") == 5, 15)
    rows = driver.execute_script("""return [...document.querySelectorAll('#calibration-values tbody tr')]
        .map(r => [...r.cells].map(c => c.textContent))""")
    check(shown and rows[0][0] == "Wind angle offset" and rows[3][0] == "Log factor"
          and rows[4][0] == "Wind speed factor" and rows[0][1] == "0.0°" and rows[3][1] == "1.000",
          f"the settings page's Calibration section in chromium: {rows}")
finally:
    driver.quit()
gateway.stop()


def auto_state():
    status, body = HTTP(auto_web, timeout=20).text("/telltale/v1/calibration")
    return json.loads(body) if status == 200 else {}


applied_by_itself = wait_for(lambda: auto_state().get("auto_applied") is not None, 300, step=2)
state = auto_state()
done = state.get("auto_applied") or {}
card = state.get("applied", {}).get("deviation") or [0] * 5
written = open(os.path.join(work, "auto", "calibration.toml")).read() \
    if os.path.exists(os.path.join(work, "auto", "calibration.toml")) else ""
check(applied_by_itself and state.get("auto") is True and any("deviation" in c for c in done.get("changes", []))
      and abs(card[1] - 5) <= 1 and max(abs(card[0]), abs(card[2]), abs(card[3]), abs(card[4])) <= 1
      and "deviation = [" in written and "restart" not in auto.log(),
      f"auto = true: learnt by itself from its history and applied without a restart (the engine's own calibration, "
      f"as GET reads it from the router): "
      f"{'; '.join(done.get('changes', []))} (the card {[round(c, 2) for c in card]}, injected 5° sin h)",
      auto.log()[-600:])
auto.stop()
check.finish()
