"""Alarms on a running gateway, as a crew and a plotter meet them.

    alarm_check.py BINARY

`telltale run` with a UDP input (this script plays the instruments and the plotter on it), a TCP output carrying the
alarm sentences, the Signal K server, `[alarms] shallow = 5` and `[voice] command` set to a script that writes down
what it was given. Then:
1. Depth 12 m, then 3 m: ALR 131 raised on the output with TXT, the Signal K notification in state `alarm`, the
   words said once, `telltale alarm list` shows it; `telltale alarm ack shallow` acknowledges it (ALR `A,A`, Signal
   K `warn`); a second acknowledge is refused.
2. The depth sounder falls silent: ALR 115 (depth lost) after its 5 s timeout, said aloud; a plotter's `$ECACK,115`
   on the input acknowledges it; an ACN for another maker's alert does not.
3. Depth back at 12 m: both cleared on the output (`V,V`), in Signal K (`normal`), and "depth back" said.
4. The start line: `telltale race port` and `telltale race starboard` ping its ends where the GPS (RMC) is; 100 m
   south of its middle, XDR LINEDIST on the output and Signal K's distanceStartline say 100 m.
Prints ok/FAIL per check and `alarm-check: N passed, M failed`.
"""
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import Checks, free_port, Gateway, nmea_position, OutputReader, sentence, wait_for  # noqa: E402

binary = sys.argv[1]
work = tempfile.mkdtemp()
check = Checks("alarm-check")


web, nmea, udp = free_port(), free_port(), free_port(socket.SOCK_DGRAM)
said = os.path.join(work, "said.log")
script = os.path.join(work, "say.sh")
with open(script, "w") as f:
    f.write(f'#!/bin/sh\necho "$*" >> "{said}"\n')
os.chmod(script, 0o755)
gateway = Gateway(binary, f"""status_line = false
state_file = ""
[[input]]
name = "bus"
url = "udp://127.0.0.1:{udp}"
[[output]]
url = "tcp://127.0.0.1:{nmea}"
kinds = ["alarm", "alarm-text", "start-line"]
pass_through = false
[alarms]
shallow = 5
[voice]
command = "{script}"
[web]
listen = "127.0.0.1:{web}"
""", work=work).start(wait=[nmea, web])

output = OutputReader(nmea)


sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
depth = [12.0]
sounding = [True]
where = [(50.7, -1.3)]




def instruments():
    while gateway.alive():
        if sounding[0]:
            sender.sendto(sentence(f"SDDPT,{depth[0]:.1f},0.4"), ("127.0.0.1", udp))
        lat, lon = where[0]
        stamp = time.strftime("%H%M%S.00,A,", time.gmtime())
        sender.sendto(sentence("GPRMC," + stamp + nmea_position(lat, "NS") + "," + nmea_position(lon, "EW")
                               + ",0.0,0.0," + time.strftime("%d%m%y", time.gmtime()) + ",,,A"), ("127.0.0.1", udp))
        time.sleep(0.25)


threading.Thread(target=instruments, daemon=True).start()


def alr(number, seconds):
    """The ALR lines for `number` seen within `seconds`, waiting until one comes."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = [line for line in output.texts() if "ALR," in line and f",{number:03d}," in line]
        if found:
            return found
        time.sleep(0.1)
    return []


def notification(path):
    url = f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/notifications/" + path.replace(".", "/")
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return json.load(answer).get("value", {})
    except Exception:
        return {}


def at(place):
    """Whether Signal K's position is `place` (the fix taken, not refused)."""
    url = f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/navigation/position/value"
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            value = json.load(answer)
        return abs(value["latitude"] - place[0]) < 1e-5 and abs(value["longitude"] - place[1]) < 1e-5
    except Exception:
        return False


def heard():
    return [line.strip() for line in open(said)] if os.path.exists(said) else []


def run(*words):
    return subprocess.run([binary, *words, "--port", str(web)], capture_output=True, text=True, timeout=10)


# ---- 1. Shallow water ------------------------------------------------------------------------------------------
time.sleep(2)
check(not alr(131, 0.1), "12 m: no alarm")
depth[0] = 3.0
raised = alr(131, 6)
check(raised and ",131,A,V,Depth under 5.0 m" in raised[0], "3 m: ALR 131 raised on the output", str(raised[:1]))
texts = [line for line in output.texts() if "TXT" in line]
check(any("ALARM: Depth under 5.0 m" in line for line in texts), "and TXT says so", str(texts[:2]))
value = notification("environment.depth.belowTransducer")
check(value.get("state") == "alarm" and "sound" in value.get("method", []),
      "Signal K notifications.environment.depth.belowTransducer is in state alarm, with sound", str(value))
check(wait_for(lambda: "shallow water, 3.0 metres" in heard(), 3), "said aloud: 'shallow water, 3.0 metres'",
      str(heard()))
listed = run("alarm", "list")
check(listed.returncode == 0 and "alarm" in listed.stdout and "environment.depth.belowTransducer" in listed.stdout,
      "telltale alarm list shows it", listed.stdout + listed.stderr)
acked = run("alarm", "ack", "shallow")
check(acked.returncode == 0, "telltale alarm ack shallow", acked.stderr)
check(wait_for(lambda: any(",131,A,A," in line for line in alr(131, 0.1)), 2),
      "the output's ALR 131 shows it acknowledged at once")
check(wait_for(lambda: notification("environment.depth.belowTransducer").get("state") == "warn", 3),
      "Signal K: state warn")
again = run("alarm", "ack", "131")
check(again.returncode != 0 and "already acknowledged" in again.stderr, "acknowledging it again is refused, and why",
      again.stderr)
unknown = run("alarm", "ack", "kraken")
check(unknown.returncode != 0 and "shallow" in unknown.stderr, "an unknown alarm is refused, naming the known ones")

# ---- 2. Sensor lost, acknowledged by the plotter ------------------------------------------------------------------
sounding[0] = False
lost = alr(115, 9)
check(lost and ",115,A,V,Depth data lost" in lost[0], "the sounder silent: ALR 115 raised", str(lost[:1]))
check(wait_for(lambda: "depth lost" in heard(), 3), "said aloud: 'depth lost'", str(heard()))
sender.sendto(sentence("ECACN,,XYZ,115,1,A,C"), ("127.0.0.1", udp))
time.sleep(1)
check(not any(",115,A,A," in line for line in alr(115, 0.1)), "an ACN for another maker's alert 115 is not ours")
sender.sendto(sentence("ECACK,115"), ("127.0.0.1", udp))
check(wait_for(lambda: any(",115,A,A," in line for line in alr(115, 0.1)), 3),
      "the plotter's $ECACK,115 acknowledges it")
check(wait_for(lambda: notification("sensor.depth").get("state") == "warn", 3),
      "Signal K notifications.sensor.depth: warn", str(notification("sensor.depth")))

# ---- 3. Back ---------------------------------------------------------------------------------------------------
depth[0] = 12.0
sounding[0] = True
check(wait_for(lambda: any(",115,V,V," in line for line in alr(115, 0.1)), 4), "depth back: ALR 115 cleared")
check(wait_for(lambda: any(",131,V,V," in line for line in alr(131, 0.1)), 6), "12 m: ALR 131 cleared")
check(wait_for(lambda: notification("environment.depth.belowTransducer").get("state") == "normal"
               and notification("sensor.depth").get("state") == "normal", 3), "Signal K: both normal")
check(wait_for(lambda: "depth back" in heard(), 3), "said aloud: 'depth back'", str(heard()))
words = heard()
check(words.count("depth lost") == 1 and sum(w.startswith("shallow water") for w in words) == 1,
      "each raise said once", str(words))

# ---- 4. The start line -------------------------------------------------------------------------------------------
metres_per_degree_lon = 111_320 * math.cos(math.radians(50.7))
time.sleep(0.5)
pinged = run("race", "port")
check(pinged.returncode == 0 and "port end set" in pinged.stdout, "telltale race port", pinged.stdout + pinged.stderr)
where[0] = (50.7, -1.3 + 300 / metres_per_degree_lon)
# 300 m in a quarter of a second is out of a boat's reach: refused, until the fifth fix there makes it a move.
check(wait_for(lambda: at(where[0]), 5), "the boat put 300 m east is there once five fixes agree")
pinged = run("race", "starboard")
check(pinged.returncode == 0 and "starboard end set" in pinged.stdout, "telltale race starboard", pinged.stderr)
where[0] = (50.7 - 100 / 111_250, -1.3 + 150 / metres_per_degree_lon)


def line_distance():
    found = [line for line in output.texts() if "LINEDIST" in line]
    if not found:
        return None
    fields = found[-1].split(",")
    return float(fields[fields.index("LINEDIST") - 2])


check(wait_for(lambda: line_distance() is not None and abs(line_distance() - 100) < 1.5, 4),
      f"100 m behind the line's middle: XDR LINEDIST {line_distance()}")
value = None
for _ in range(30):
    try:
        url = f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/navigation/racing/distanceStartline/value"
        with urllib.request.urlopen(url, timeout=2) as answer:
            value = json.load(answer)
        if abs(value - 100) < 1.5:
            break
    except Exception:
        pass
    time.sleep(0.2)
check(value is not None and abs(value - 100) < 1.5, f"Signal K navigation.racing.distanceStartline {value}")

alive = gateway.alive()
gateway.stop()
check(alive, "the gateway ran throughout")
check.finish()
