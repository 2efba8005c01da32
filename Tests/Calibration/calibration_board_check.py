"""Calibration learnt on board (#50): a real `telltale run` playing a day of Irene's log into its history
(../shared/fixtures/calibration, at 20 times its speed), a calibration applied before it started (the file beside the
state file), and /telltale/v1/calibration:

1. GET: the applied calibration as the file says it.
2. POST from an approved device: the learner runs in its own process over the history and reports the same seconds
   of sailing and manoeuvres as `telltale calibrate sailing --history` on the same folder; an unapproved device is
   refused.
3. PUT applies what was learnt (the file replaced, the one before kept, the gateway restarted on it: with nothing
   sure in a quarter of an hour of log, the values applied before are kept); DELETE takes it off (no correction after
   the restart).
4. The settings page's Calibration section in chromium: a row a value, as applied.

    calibration_board_check.py BINARY LOG
"""
import json
import os
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
import subprocess  # noqa: E402
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
restarted = wait_for(lambda: "restart" in gateway.log() or "starting" in gateway.log()[-2000:], 10)
time.sleep(3)
after = wait_for(lambda: calibration().get("state") is not None, 20) and calibration()
kept = open(APPLIED + ".previous").read() if os.path.exists(APPLIED + ".previous") else ""
check(status == 200 and open(APPLIED).read() == learnt_file and "awa_offset = -4.5" in kept
      and after and after.get("applied", {}).get("awa_offset") is not None,
      f"PUT: the learnt calibration applied (the file replaced, the one before kept), the gateway restarted on it: "
      f"applied now {after.get('applied') if after else None}", body[:200])
status, body = http.text("/telltale/v1/calibration", method="DELETE", body=b"")
time.sleep(3)
wait_for(lambda: calibration().get("applied") is not None, 20)
off = calibration()
check(status == 200 and not os.path.exists(APPLIED) and off.get("applied", {}).get("awa_offset") == 0
      and off.get("applied", {}).get("speed_factor") == 1 and off.get("undo_ready") is False,
      f"DELETE: the calibration taken off, the gateway restarted without it: {off.get('applied')}", body[:200])

from browser import chromium  # noqa: E402
driver = chromium(1024, 1400)
try:
    driver.get(f"http://127.0.0.1:{web}/settings.html")
    shown = wait_for(lambda: driver.execute_script(
        "return document.querySelectorAll('#calibration-values tbody tr').length") == 4, 15)
    rows = driver.execute_script("""return [...document.querySelectorAll('#calibration-values tbody tr')]
        .map(r => [...r.cells].map(c => c.textContent))""")
    check(shown and rows[0][0] == "Wind angle offset" and rows[3][0] == "Log factor"
          and rows[0][1] == "0.0°" and rows[3][1] == "1.000",
          f"the settings page's Calibration section in chromium: {rows}")
finally:
    driver.quit()
gateway.stop()
check.finish()
