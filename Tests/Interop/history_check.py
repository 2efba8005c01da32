"""Checks the history kept on the card through the History API v2 (#40), against pynmea2's reading of the same log.

The demo voyage plays at 4 times its speed; history/values is asked for speed over ground (average, max), apparent
wind speed (min), the heading (a direction, averaged as a vector) and the position (first) at 60 s, and the minute
means are compared with the ones pynmea2's RMC and DPT give. Prints 'history-check: N passed, M failed'.

    history_check.py BINARY
"""

import datetime
import json
import math
import os
import signal
import sys
import tempfile
import time

import pyais
import pynmea2
import websocket

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ROOT, Checks, Gateway, free_port, demo_input  # noqa: E402
from webclient import HTTP  # noqa: E402
from history_clock import one_clock  # noqa: E402

binary = sys.argv[1]
checks = Checks("history-check")
demo = os.path.join(ROOT, "Fixtures", "demo-voyage")
web = free_port()
state = tempfile.mkdtemp(prefix="telltale-history-")
SPEED = 4
config = f"""talker = "II"
status_line = false
state_file = "{state}/state.toml"

{demo_input(speed=SPEED)}
[web]
listen = "127.0.0.1:{web}"

[history]
keep_mb = 8
paths = ["performance.velocityMadeGood"]
vessel_interval = 10
"""
KN = 1852 / 3600
HISTORY = "/signalk/v2/api/history"


get = HTTP(web).json


# The log's own minutes, by pynmea2: RMC time and SOG, DPT's depth below the transducer.
day = datetime.datetime(2026, 6, 21, tzinfo=datetime.timezone.utc).timestamp()
sog, aws, heading, first_position = {}, {}, {}, {}
reports = {}  # pyais's position reports: MMSI -> [(lon, lat, sog m/s)]
clock = None
for line in open(os.path.join(demo, "voyage.nmea")):
    if line.startswith("!AIVDM") and line.split(",")[1] == "1":
        try:
            report = pyais.decode(line.strip()).asdict()
        except Exception:  # noqa: BLE001 (a line pyais cannot read is not ours to judge here)
            continue
        if report.get("msg_type") in (1, 2, 3, 18, 19) and report.get("lat") not in (None, 91):
            reports.setdefault(report["mmsi"], []).append((report["lon"], report["lat"], (report.get("speed") or 0) * KN))
        continue
    try:
        message = pynmea2.parse(line.strip())
    except pynmea2.ParseError:
        continue
    if isinstance(message, pynmea2.types.talker.RMC) and message.timestamp:
        t = message.timestamp
        clock = day + t.hour * 3600 + t.minute * 60 + t.second + t.microsecond / 1e6
        minute = int(clock // 60)
        sog.setdefault(minute, []).append(float(message.spd_over_grnd) * KN)
        first_position.setdefault(minute, (message.longitude, message.latitude))
    elif clock is not None and isinstance(message, pynmea2.types.talker.DPT) and message.depth:
        aws.setdefault(int(clock // 60), []).append(float(message.depth))

gateway = Gateway(binary, config).start(wait=[web])
# 4x: about 6 minutes of the voyage in 90 s.
time.sleep(90)
gateway.stop()
files = sorted(os.listdir(os.path.join(state, "history")))
checks(files == ["2026-06-21.tth"], "kept in history/ beside the state file, a file a day, on the voyage's clock", files)
size = 0
if files:
    laid = open(os.path.join(state, "history", files[0]), "rb").read()
    at = 0
    while laid[at:at + 4] in (b"TTH1", b"TTV1"):  # the blocks, not the zeros laid out after them
        length = 14 + int.from_bytes(laid[at + 8:at + 10], "little")
        if laid[at:at + 4] == b"TTH1":  # the boat's own minutes (TTV1: a vessel heard on AIS)
            size += length
        at += length

gateway.start(wait=[web])
start = min(sog)
frm = datetime.datetime.fromtimestamp(start * 60, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
status, answer = get(f"{HISTORY}/values?paths=navigation.speedOverGround,navigation.speedOverGround:max,"
                     f"environment.depth.belowTransducer:min,navigation.position,navigation.headingTrue"
                     f"&from={frm}&duration=PT10M&resolution=60")
rows = answer.get("data", []) if isinstance(answer, dict) else []
checks(status == 200 and [v["method"] for v in answer.get("values", [])] == ["average", "max", "min", "first", "average"],
       "history/values: 200, a column a path with its aggregate (the position's default first)", str(answer)[:300])
full = [row for row in rows if row[1] is not None and int(datetime.datetime.fromisoformat(row[0].replace("Z", "+00:00")).timestamp() // 60) in sog]
# The last minute kept may be partial (the gateway stopped in it): compare whole minutes.
compared, worst = 0, 0.0
for row in full[:-1]:
    minute = int(datetime.datetime.fromisoformat(row[0].replace("Z", "+00:00")).timestamp() // 60)
    if len(sog.get(minute, [])) < 55:
        continue
    mean = sum(sog[minute]) / len(sog[minute])
    worst = max(worst, abs(row[1] - mean))
    compared += 1
checks(compared >= 4 and worst < 0.05, f"SOG minute means as pynmea2's RMC gives them ({compared} minutes, worst "
       f"{worst:.4f} m/s)", rows[:3])
highs = [(row[2], max(sog[int(datetime.datetime.fromisoformat(row[0].replace('Z', '+00:00')).timestamp() // 60)]))
         for row in full[:-1]]
checks(highs and all(abs(a - b) < 0.011 for a, b in highs), "SOG max: the RMC's highest of each minute", highs[:3])
lows = []
for row in full[:-1]:
    minute = int(datetime.datetime.fromisoformat(row[0].replace("Z", "+00:00")).timestamp() // 60)
    if aws.get(minute) and row[3] is not None:
        # A sample taken in the minute's first second may still hold the last reading of the minute before.
        before = aws.get(minute - 1, [])[-1:]
        lows.append((row[3], min(aws[minute] + before), min(aws[minute])))
checks(lows and all(b - 0.006 <= a <= c + 0.3 for a, b, c in lows),
       "depth min: no lower than DPT's lowest of the minute (kept once a second, so at most a little higher)",
       lows[:3])
firsts = []
for row in full[:-1]:
    minute = int(datetime.datetime.fromisoformat(row[0].replace("Z", "+00:00")).timestamp() // 60)
    if row[4] and minute in first_position:
        lon, lat = first_position[minute]
        firsts.append(math.hypot(row[4][0] - lon, row[4][1] - lat))
checks(firsts and max(firsts) < 0.0003, "the position as [lon, lat], the minute's first within a few seconds' run",
       firsts[:3])
checks(all(row[5] is None or 0 <= row[5] < 2 * math.pi for row in rows), "the heading averaged in 0..2π")

status, coarse = get(f"{HISTORY}/values?paths=navigation.speedOverGround&from={frm}&duration=PT10M&resolution=300")
checks(status == 200 and len(coarse.get("data", [])) == 2, "resolution 300 s: two rows for ten minutes", coarse)
status, paths = get(f"{HISTORY}/paths?from={frm}&duration=PT10M")
checks(status == 200 and "navigation.position" in paths and "environment.wind.speedApparent" in paths,
       "history/paths: what was kept", paths)
checks(status == 200 and "performance.velocityMadeGood" in paths, "[history] paths adds a path, listed", paths)
status, vmg = get(f"{HISTORY}/values?paths=performance.velocityMadeGood:max&from={frm}&duration=PT10M&resolution=60")
checks(status == 200 and any(row[1] is not None for row in vmg.get("data", [])), "and kept", str(vmg)[:200])
status, contexts = get(f"{HISTORY}/contexts?from={frm}&duration=PT10M")
own = [c for c in contexts if c.startswith("vessels.urn:mrn:signalk:uuid:")] if status == 200 else []
vessels = [c for c in contexts if c.startswith("vessels.urn:mrn:imo:mmsi:")] if status == 200 else []
checks(len(own) == 1 and vessels, f"history/contexts: this boat and {len(vessels)} vessels heard on AIS", contexts)
matched, missed = 0, []
for context in vessels:
    mmsi = int(context.rsplit(":", 1)[1])
    status, track = get(f"{HISTORY}/values?context={context}&paths=navigation.position:last,"
                        f"navigation.speedOverGround:last&from={frm}&duration=PT10M&resolution=60")
    for row in track.get("data", []) if status == 200 else []:
        if row[1] is None:
            continue
        near = [r for r in reports.get(mmsi, []) if abs(r[0] - row[1][0]) < 2e-6 and abs(r[1] - row[1][1]) < 2e-6]
        if near and any(abs(r[2] - row[2]) < 0.06 for r in near):
            matched += 1
        else:
            missed.append((mmsi, row))
checks(matched >= 3 and not missed, f"each vessel's kept positions and speeds are reports pyais reads in the log "
       f"({matched} minutes matched)", missed[:3])
status, body = get(f"{HISTORY}/values?context=vessels.urn:mrn:imo:mmsi:12&paths=navigation.position&duration=PT1H")
checks(status == 404, "a context that is not an MMSI: 404", body)

# Playback on the stream, as Freeboard-SK and WilhelmSK ask for it: the hello, then the deltas in order at the rate.
RATE = 30
stream = websocket.create_connection(
    f"ws://127.0.0.1:{web}/signalk/v1/playback?startTime={frm}&playbackRate={RATE}&subscribe=all", timeout=10)
hello = json.loads(stream.recv())
began = time.time()
played = []
while time.time() - began < 6:
    played.append(json.loads(stream.recv()))
elapsed = time.time() - began
stream.close()
checks(hello.get("startTime", "")[:19] == frm[:19] and hello.get("playbackRate") == RATE and "self" in hello,
       "playback: the hello repeats startTime and playbackRate", hello)
mine = [d for d in played if d.get("context") == own[0]] if own else []
stamps = [d["updates"][0]["timestamp"] for d in mine]
span = (datetime.datetime.fromisoformat(stamps[-1].replace("Z", "+00:00")).timestamp()
        - datetime.datetime.fromisoformat(stamps[0].replace("Z", "+00:00")).timestamp()) if stamps else 0
checks(stamps == sorted(stamps) and stamps and stamps[0][:19] >= frm[:19],
       f"playback: {len(mine)} deltas of the boat in order from startTime on", stamps[:2])
checks(RATE * elapsed * 0.7 <= span <= RATE * elapsed * 1.1,
       f"playback: at the asked rate ({span:.0f} s of history in {elapsed:.1f} s at {RATE}x)")
checks(any(d.get("context", "").startswith("vessels.urn:mrn:imo:mmsi:") for d in played),
       "playback with subscribe=all: the AIS vessels' tracks too")
status, seconds = get(f"{HISTORY}/values?paths=navigation.speedOverGround:first&from={stamps[0] if stamps else frm}"
                      f"&duration=20&resolution=1")
wanted = {row[0][:19]: row[1] for row in seconds.get("data", [])} if status == 200 else {}
same = []
for d in mine[:20]:
    for value in d["updates"][0]["values"]:
        if value["path"] == "navigation.speedOverGround" and d["updates"][0]["timestamp"][:19] in wanted:
            same.append(abs(value["value"] - wanted[d["updates"][0]["timestamp"][:19]]) < 1e-6)
checks(len(same) >= 10 and all(same), f"playback's values are history/values' at the same seconds ({len(same)})")
status, providers = get(f"{HISTORY}/_providers")
checks(status == 200 and providers == {"telltale": {"isDefault": True}}, "_providers", providers)

for what, query in [
    ("negative resolution", f"paths=navigation.speedOverGround&from={frm}&duration=600&resolution=-5"),
    ("a huge range", "paths=navigation.speedOverGround&duration=P99999D"),
    ("a million paths", "paths=" + ",".join(["navigation.speedOverGround"] * 3000)),
    ("a second's rows over a month", f"paths=navigation.speedOverGround&from={frm}&duration=P30D&resolution=1"),
    ("an unknown path", f"paths=../../etc/passwd&from={frm}&duration=600"),
    ("no paths", f"from={frm}&duration=600"),
]:
    status, body = get(f"{HISTORY}/values?{query}")
    checks(status in (400, 413, 431), f"{what}: refused", (status, str(body)[:100]))
checks(gateway.alive(), "the gateway is still up")

# A power cut: killed without a word while writing; started again, the store opens and what was kept is there.
gateway.stop()
before = size
gateway.start(wait=[web])
time.sleep(5)
gateway.process.send_signal(signal.SIGKILL)
gateway.process.wait()
# A block cut short where the next goes (the data's end: the first place no block decodes), as a power cut leaves it.
day_file = os.path.join(state, "history", files[0])
data = open(day_file, "rb").read()
end = 0
while data[end:end + 4] in (b"TTH1", b"TTV1"):
    end += 14 + int.from_bytes(data[end + 8:end + 10], "little")
with open(day_file, "r+b") as torn:
    torn.seek(end)
    torn.write(b"TTH1\x01\x02\x03\x04\xff\x00partial")
gateway.start(wait=[web])
time.sleep(3)
status, again = get(f"{HISTORY}/values?paths=navigation.speedOverGround&from={frm}&duration=PT30M&resolution=60")
kept = [row for row in again.get("data", []) if row[1] is not None] if isinstance(again, dict) else []
checks(status == 200 and len(kept) >= len(full), f"after SIGKILL and a torn block: every minute kept before is there "
       f"({len(kept)} minutes against {len(full)})", str(again)[:200])
gateway.stop()
log = open(gateway.log_path).read() if os.path.exists(gateway.log_path) else ""
checks("torn block" in log, "the torn block was found and zeroed before the next minute was written", log[-400:])
checks(before > 0 and before / (len(full) * 60 * 14) < 2,
       f"bytes on the card per sample: {before / max(1, len(full) * 60 * 14):.2f} (14 paths a second)")

one_clock(binary, checks)
checks.finish()
