"""Calibration learnt on board (#50): a real `telltale run` playing a day of Irene's log into its history
(../shared/fixtures/calibration, at 20 times its speed), a calibration applied before it started (the file beside the
state file), and /telltale/v1/calibration:

1. GET: the applied calibration as the file says it.
2. POST from an approved device: the learner runs in its own process over the history and reports the same seconds
   of sailing and manoeuvres as `telltale calibrate sailing --history` on the same folder, while the daemon's own
   memory stays within 200 kB and no tick of its loop runs late; an unapproved device is refused.
3. PUT applies what was learnt at once, without a restart (the file replaced, the one before kept: with nothing sure
   in a quarter of an hour of log, the values applied before are kept); DELETE takes it off at once.
4. The settings page's Calibration section in chromium: a row a value, as applied; the log's steps the learner finds
   on Irene's days said as its report says them (calibration_board_steps.py).
5. `[calibration] auto = true` on a second gateway, playing a simulated course whose compass has a card of 5° sin h
   (`telltale simulate --deviation 0,5,0,0,0`): it learns by itself from its history, applies the card it is sure of
   without a restart, and says what it changed; the boat's polar learnt with it is drawn against the configured
   one, downloaded (CSV, Expedition) and chosen for targets and performance, across a restart.
6. `auto = true` over two days whose second contradicts the first: nothing applied, and why (calibration_board_hold.py);
7. a calibration too large for a light air applied only in part, and said (calibration_board_limited.py); 8. a
   configured calibration file that cannot be read: the gateway runs, uncalibrated, and says why (…_unreadable.py).

    calibration_board_check.py BINARY LOG
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import Checks, Gateway, free_port, memory_kb, wait_for  # noqa: E402
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
speed = 6
[web]
listen = "127.0.0.1:{auto_web}"
put_networks = ["127.0.0.1/32"]
[calibration]
auto = true
auto_hours = 0.075
""", work=work, name="auto").start(wait=[auto_web])


def sk_status(port, path):
    return HTTP(port, timeout=5).text("/signalk/v1/api/vessels/self/" + path)[0]


# While the course plays, before any polar is chosen: the boat's speed is there, a polar speed is not (none configured).
playing = wait_for(lambda: sk_status(auto_web, "navigation/speedThroughWater") == 200, 20, step=0.5)
polar_before = sk_status(auto_web, "performance/polarSpeed")


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
# The daemon's own memory and its loop while it learns: before the POST, every half second until the report is in,
# and after it (the report kept); the ticks the engine says ran a quarter of a second late or more meanwhile.
before = memory_kb(gateway.process.pid, "RssAnon")
log_mark = len(gateway.log())
asked = time.monotonic()
status, body = http.text("/telltale/v1/calibration", method="POST", body=b"")
during = []


def learning_done():
    during.append(memory_kb(gateway.process.pid, "RssAnon"))
    return calibration().get("state") in ("learnt", "failed")


learnt = wait_for(learning_done, 60, step=0.5)
took = time.monotonic() - asked
time.sleep(2)  # a few more turns of the loop with the report held
after = memory_kb(gateway.process.pid, "RssAnon")
late = re.findall(r"ran ([0-9.]+) ms late", gateway.log()[log_mark:])
check(before > 0 and after - before < 200 and max(during + [after]) - before < 200 and not late,
      f"the daemon while it learns (the learner its own process, {took:.1f} s): RssAnon {before} kB before, "
      f"{min(during + [after])}..{max(during + [after])} kB while and {after} kB after, the report held "
      f"(within 200 kB); the engine's ticks late by a quarter of a second or more meanwhile: "
      f"{', '.join(m + ' ms' for m in late) or 'none'}")
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
from calibration_board_steps import log_steps_line  # noqa: E402
from calibration_board_hold import hold_check  # noqa: E402
from calibration_board_limited import limited_check  # noqa: E402
from calibration_board_unreadable import unreadable_check  # noqa: E402

driver = chromium(1024, 1400)
try:
    driver.get(f"http://127.0.0.1:{web}/settings.html")
    shown = wait_for(lambda: driver.execute_script(
        "return document.querySelectorAll('#calibration-values tbody tr').length") == 7, 15)
    rows = driver.execute_script("""return [...document.querySelectorAll('#calibration-values tbody tr')]
        .map(r => [...r.cells].map(c => c.textContent))""")
    check(shown and rows[0][0] == "Wind angle offset" and rows[3][0] == "Upwash reaching" and rows[3][1] == "0.0°"
          and rows[4][0] == "Log factor" and rows[5][0] == "Log by tack (port +)" and rows[5][1] == "0.000"
          and rows[6][0] == "Wind speed factor" and rows[0][1] == "0.0°" and rows[4][1] == "1.000",
          f"the settings page's Calibration section in chromium: {rows}")
    deviation = (calibration().get("report") or {}).get("deviation") or {}
    card_text = driver.execute_script("return document.getElementById('calibration-card').textContent")
    check(deviation.get("status") == "not enough data"
          and card_text == f"Compass card: not enough data ({deviation.get('pieces')} steady pieces).",
          f"the section says when there is not enough data for a compass card (this course's pieces): \"{card_text}\"")
    log_steps_line(driver, check, binary, log)
finally:
    driver.quit()
gateway.stop()


def auto_state():
    status, body = HTTP(auto_web, timeout=20).text("/telltale/v1/calibration")
    return json.loads(body) if status == 200 else {}


applied_by_itself = wait_for(lambda: auto_state().get("auto_applied") is not None, 420, step=2)
state = auto_state()
done = state.get("auto_applied") or {}
card = state.get("applied", {}).get("deviation") or [0] * 5
written = open(os.path.join(work, "auto", "calibration.toml")).read() \
    if os.path.exists(os.path.join(work, "auto", "calibration.toml")) else ""

def curve(terms, h):
    r = math.radians(h)
    return sum(t * f for t, f in zip(terms, (1, math.sin(r), math.cos(r), math.sin(2 * r), math.cos(2 * r))))


file_card = [float(x) for x in written.split("deviation = [")[1].split("]")[0].split(",")] if "deviation = [" in written \
    else []
worst = max(abs(curve(card, h) - 5 * math.sin(math.radians(h))) for h in range(0, 360, 45))
check(applied_by_itself and state.get("auto") is True and any("deviation" in c for c in done.get("changes", []))
      and len(file_card) == 5 and all(abs(a - b) < 0.002 for a, b in zip(file_card, card)) and worst <= 2
      and "restart" not in auto.log(),
      f"auto = true: learnt by itself from its history and applied without a restart (the engine's own calibration, "
      f"as GET reads it from the router): "
      f"{'; '.join(done.get('changes', []))} (the card {[round(c, 2) for c in card]}, as the applied file says it, "
      f"within {worst:.2f}° of the 5° sin h injected at every 45°: 2° at most from 25 minutes of a course)",
      auto.log()[-600:])

# The settings page says the card it learnt by itself, and whether the wind sees it.
report = state.get("report") or {}
driver = chromium(1024, 1400)
try:
    driver.get(f"http://127.0.0.1:{auto_web}/settings.html")
    wait_for(lambda: driver.execute_script("return document.getElementById('calibration-card').textContent"), 15)
    card_text = driver.execute_script("return document.getElementById('calibration-card').textContent")
    largest = (report.get("deviation") or {}).get("largest", -1)
    says = [c.get("says") for c in (report.get("card_check") or {}).values()]
    check(card_text.startswith(f"Compass card: up to {largest:.1f}°") and "(sure, applied)" in card_text
          and "090° +" in card_text and "270° -" in card_text and all(s in card_text for s in says),
          f"the settings page says the card learnt by itself (5° sin h: + at 090°, - at 270°), sure and applied, and "
          f"what the wind says of it: \"{card_text}\"")
finally:
    driver.quit()

# A learning after the apply reads only the history the applied calibration corrected: none yet (the course had ended).
since_path = os.path.join(work, "auto", "calibration", "applied-since")
since = open(since_path).read().strip() if os.path.exists(since_path) else ""
history = os.path.join(work, "auto", "history")
counts = []
for extra in ([], ["--since", since]):
    run = subprocess.run([binary, "calibrate", "sailing", "--history", history, "--json", *extra] if since else ["false"],
                         capture_output=True, text=True, timeout=120)
    counts.append(json.loads(run.stdout).get("samples", -1) if run.stdout.startswith("{") else -1)
check(since and counts[0] > 1000 and counts[1] == 0,
      f"after applying, the next learning reads only what the applied calibration corrected: the history since "
      f"{since} ({counts[1]} s of it, of {counts[0]}), never a mix of before and after", since)

# The boat's learnt polar (learnt with the card): drawn against the configured one (none here), chosen by the crew for
# targets and performance, kept across a restart, and downloaded as the table (OpenCPN) and Expedition's layout.
auto_http = HTTP(auto_web, timeout=20)
status, body = auto_http.text("/telltale/v1/calibration/polar")
polar = json.loads(body) if status == 200 else {}
cells = {(tws, twa): v for tws, row in zip(polar.get("tws", []), polar.get("learnt", []))
         for twa, v in zip(polar.get("twa", []), row) if v}
status, csv_text = auto_http.text("/telltale/v1/calibration/polar.csv")
table = {}
rows = [line.split(";") for line in csv_text.strip().split("\n")] if status == 200 else []
for row in rows[1:]:
    for tws, cell in zip(rows[0][1:], row[1:]):
        if cell:
            table[(float(tws), float(row[0]))] = float(cell)
status, pol = auto_http.text("/telltale/v1/calibration/polar.pol")
expedition = {}
for line in pol.split("\n") if status == 200 else []:
    if line and not line.startswith("!"):
        numbers = [float(x) for x in line.split("\t")]
        for i in range(1, len(numbers) - 1, 2):
            expedition[(numbers[0], numbers[i])] = numbers[i + 1]
check(polar.get("learnt_ready") and cells and polar.get("use") == "configured" and set(cells) == set(table)
      and all(abs(cells[k] - table[k]) < 0.01 and abs(expedition.get(k, 0) - table[k]) < 0.01 for k in table),
      f"the learnt polar: {len(cells)} cells, the same in the JSON the plot draws, the CSV (OpenCPN) and Expedition's "
      f"layout", json.dumps(polar)[:300])
speed_path = "/signalk/v1/api/vessels/self/performance/polarSpeed"
status, _ = auto_http.text("/telltale/v1/calibration/polar", method="PUT", body=b'{"use": "learnt"}')
chosen = json.loads(auto_http.text("/telltale/v1/calibration/polar")[1])
auto.stop()
auto.start(wait=[auto_web])  # the course plays again from its start: live values
live = wait_for(lambda: HTTP(auto_web, timeout=5).text(speed_path)[0] == 200, 30, step=1)
status, body = HTTP(auto_web, timeout=5).text(speed_path)
check(playing and polar_before == 404 and chosen.get("use") == "learnt" and live
      and "targets and performance from the learnt polar" in auto.log(),
      f"the crew chooses the learnt polar (PUT): kept across a restart, the boat's polar speed now from it "
      f"({body[:80]}; none configured: {polar_before} before the choice)", auto.log()[-400:])
driver = chromium(1024, 1400)
try:
    driver.get(f"http://127.0.0.1:{auto_web}/settings.html")
    drawn = wait_for(lambda: driver.execute_script("return document.querySelectorAll('#polar-plot .polar-learnt').length")
                     > 0, 15)
    dots = driver.execute_script("""return [...document.querySelectorAll('#polar-plot .polar-learnt')]
        .map(c => [+c.dataset.tws, +c.dataset.twa, +c.dataset.speed])""")
    legend = driver.execute_script("return document.getElementById('polar-legend').textContent")
    check(drawn and len(dots) == len(cells) and all(abs(cells.get((t, a), -1) - v) < 0.01 for t, a, v in dots)
          and "from the learnt polar" in legend
          and driver.execute_script("return document.getElementById('polar-learnt').disabled") is True,
          f"the settings page draws the learnt polar in chromium: {len(dots)} dots, one a learnt cell; "
          f"\"{legend[-50:]}\"")
finally:
    driver.quit()
auto.stop()
hold_check(binary, check, work)
limited_check(binary, check, work, chromium)
unreadable_check(binary, check, work)
check.finish()
