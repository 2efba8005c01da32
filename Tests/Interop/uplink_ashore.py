"""The uplink's checks ashore (uplink_check.py, sections 4 to 6): a broker slow to answer, then refusing, then there;
`telltale fleet` with five gateways in chromium; a fleet that keeps its session across a kill. Each starts its own
brokers (Debian's mosquitto on loopback) and gateways, and adds its processes to `procs` for the caller's cleanup."""
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request

from browser import chromium
from support import ROOT, Gateway, demo_input, free_port, stop, wait_for


python = sys.executable


def slow_broker(binary, work, check, procs):
    """5. The boat online within 20 s of a broker that hung, then refused, then started."""
    # The port's accept queue is full (a shore host too busy to answer): the boat's SYN goes unanswered and the attempt
    # hangs, with its CONNECT waiting in libmosquitto's queue, until the keep-alive (5 s) ends it. Then the port closes:
    # the SYNs sent again are answered with a reset after the attempt began (as a refusal comes over a real network, not
    # at once as on loopback). Then the broker starts. Each failed attempt must count once in the backoff (a failed
    # attempt's waiting CONNECT once made every turn of the loop count as a failure, and the boat never tried again).
    late_port, late_nmea = free_port(), free_port()
    busy = socket.socket()
    busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    busy.bind(("127.0.0.1", late_port))
    busy.listen(0)
    fillers = []
    for _ in range(3):
        filler = socket.socket()
        filler.setblocking(False)
        filler.connect_ex(("127.0.0.1", late_port))
        fillers.append(filler)
    late_folder = os.path.join(work, "late")
    os.makedirs(os.path.join(late_folder, "state"))
    late = Gateway(binary, f"""status_line = false
state_file = "{late_folder}/state/state.toml"
{demo_input('voyage', speed=5)}[[output]]
url = "tcp://127.0.0.1:{late_nmea}"
kinds = ["true-wind"]
[uplink]
broker = "mqtt://127.0.0.1:{late_port}"
boat = "late"
keep_alive = 5
batch_seconds = 2
""", work=late_folder).start(wait=[late_nmea])
    time.sleep(9)
    hung = [line for line in late.log().splitlines() if "cannot reach the broker" in line]
    busy.close()
    for filler in fillers:
        filler.close()
    time.sleep(5)
    late_conf = os.path.join(work, "late-mosquitto.conf")
    with open(late_conf, "w") as f:
        f.write(f"listener {late_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    late_broker = subprocess.Popen(["mosquitto", "-c", late_conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs.append(late_broker)
    started = time.monotonic()
    back = wait_for(lambda: "uplink: connected" in late.log(), 40, step=0.5)
    took = time.monotonic() - started
    late.stop()
    stop(late_broker)
    check(hung, "an attempt left unanswered is ended by its keep-alive and said", late.log()[-600:])
    check(back and took < 20, f"refused after it began, then the broker there: the boat connected {took:.1f} s after the "
          "broker started (at most 20)", "\n".join(l for l in late.log().splitlines() if "uplink" in l)[-800:])


def fleet_ashore(binary, work, check, procs):
    """4. The fleet ashore: five boats on the Fleet layout, each where its gateway says."""
    port = free_port()
    conf = os.path.join(work, "fleet-mosquitto.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    broker = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs.append(broker)
    route = open(os.path.join(ROOT, "Fixtures", "demo-voyage", "route.gpx")).read()
    gateways = []
    for k in range(5):
        folder = os.path.join(work, f"boat{k}")
        os.makedirs(os.path.join(folder, "state"))
        shifted = route
        shifted = re.sub(r'lat="([-0-9.]+)"', lambda m: f'lat="{float(m.group(1)) + 0.01 * k:.6f}"', shifted)
        with open(os.path.join(folder, "route.gpx"), "w") as f:
            f.write(shifted)
        subprocess.run([binary, "simulate", "--route", os.path.join(folder, "route.gpx"), "--output", folder,
                        "--seed", str(k + 2)], check=True, capture_output=True)
        g = Gateway(binary, f"""status_line = false
state_file = "{folder}/state/state.toml"
[[input]]
name = "log"
url = "file:{folder}/voyage.nmea"
speed = 5
[uplink]
broker = "mqtt://127.0.0.1:{port}"
boat = "boat{k}"
send = ["position", "wind", "alarms"]
[uplink.rates]
position = 1
wind = 1
""", work=folder).start()
        gateways.append(g)
    web = free_port()
    fleet = subprocess.Popen([binary, "fleet", "--broker", f"mqtt://127.0.0.1:{port}", "--listen", f"127.0.0.1:{web}",
                              "--store", os.path.join(work, "fleet.sqlite")],
                             stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "fleet.log"), "w"))
    procs.append(fleet)
    driver = chromium(1024, 900)
    try:
        driver.get(f"http://127.0.0.1:{web}/")

        def markers():
            return driver.execute_script("""return [...document.querySelectorAll('.fleet-icon svg')].map(s => ({
            boat: s.dataset.boat, lat: Number(s.dataset.lat), lon: Number(s.dataset.lon)}))""")

        five = wait_for(lambda: len(markers()) == 5, 30, step=0.5)
        check(five, f"the Fleet layout shows five boats ({len(markers())})",
              driver.find_element("id", "layout-name").text)
        # Each boat where its own gateway says it is: its position as the broker keeps it, read at the same moment.
        reader = subprocess.run([python, "-c", f"""import json, time
import paho.mqtt.client as mqtt
got = {{}}
def on_message(c, u, m):
    got[m.topic.split('/')[1]] = json.loads(m.payload)['value']
def on_connect(c, u, f, r, p):
    c.subscribe('telltale/+/navigation/position', qos=1)
client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id='check', clean_session=True)
client.on_message = on_message
client.on_connect = on_connect
client.connect('127.0.0.1', {port}, 30)
client.loop_start()
time.sleep(1.5)
print(json.dumps(got))
"""], capture_output=True, text=True, timeout=30)
        reported = json.loads(reader.stdout or "{}")
        time.sleep(2.5)
        shown = {m["boat"]: m for m in markers()}
        # Five knots at 5x is about 13 m/s: within the 4 s between the two readings, 60 m (0.0006 degrees) at most.
        near = [b for b, p in reported.items() if b in shown and abs(shown[b]["lat"] - p["latitude"]) < 0.001
                and abs(shown[b]["lon"] - p["longitude"]) < 0.0015]
        check(len(near) == 5, f"each at the position its own gateway reports ({len(near)} of 5 within 100 m)",
              json.dumps({"shown": shown, "reported": reported})[:500])
        inside = driver.execute_script("""const box = document.querySelector('.fleet-icon').closest('.leaflet-container')
        .getBoundingClientRect();
        return [...document.querySelectorAll('.fleet-icon')].filter(m => { const r = m.getBoundingClientRect();
            return r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom; }).length""")
        check(inside == 5, f"the map fitted to the whole fleet as boats joined: {inside} of 5 in view")
        rows = driver.execute_script("return [...document.querySelectorAll('.fleet-table tbody tr')].map(r => r.dataset.boat)")
        check(sorted(rows) == [f"boat{k}" for k in range(5)], "the table lists the five boats with their age", str(rows))
        os.makedirs(os.path.join(ROOT, ".build", "uplink-screenshots"), exist_ok=True)
        driver.save_screenshot(os.path.join(ROOT, ".build", "uplink-screenshots", "fleet.png"))
    finally:
        driver.quit()
        for g in gateways:
            g.stop()


def kept_session(binary, work, check, procs):
    """6. A fleet with --session gets every batch sent while it was killed; one without does not."""
    # Two fleets follow one boat, one with --session (the broker keeps its subscription and the boat's QoS 1 batches
    # while it is stopped), one without. Both are killed with SIGKILL while the boat goes on sending, then started again:
    # the one with a session gets every batch sent while it was down, none missing; the one without never sees them.
    keep_port = free_port()
    keep_conf = os.path.join(work, "keep-mosquitto.conf")
    with open(keep_conf, "w") as f:
        f.write(f"listener {keep_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    keep_broker = subprocess.Popen(["mosquitto", "-c", keep_conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs.append(keep_broker)
    time.sleep(0.5)
    keep_folder = os.path.join(work, "keep")
    os.makedirs(os.path.join(keep_folder, "state"))


    def follower(session, web_port):
        words = [binary, "fleet", "--broker", f"mqtt://127.0.0.1:{keep_port}", "--listen", f"127.0.0.1:{web_port}",
                 "--store", os.path.join(work, f"fleet-{session or 'clean'}.sqlite")]
        process = subprocess.Popen(words + (["--session", session] if session else []), stdout=subprocess.DEVNULL,
                                   stderr=open(os.path.join(work, f"fleet-{session or 'clean'}.log"), "a"))
        procs.append(process)
        return process


    def batches(web_port):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/telltale/v1/fleet", timeout=3) as response:
                boats = json.loads(response.read()).get("boats", [])
        except (OSError, ValueError):
            return {}
        return next((b for b in boats if b.get("id") == "keeper"), {})


    kept_web, clean_web = free_port(), free_port()
    kept, clean = follower("committee", kept_web), follower(None, clean_web)
    time.sleep(1)
    keeper = Gateway(binary, f"""status_line = false
state_file = "{keep_folder}/state/state.toml"
{demo_input('voyage', loop=True, speed=5)}[uplink]
broker = "mqtt://127.0.0.1:{keep_port}"
boat = "keeper"
batch_seconds = 1
[uplink.rates]
position = 1
wind = 1
""", work=keep_folder).start()
    wait_for(lambda: (batches(kept_web).get("lastBatch") or 0) >= 3 and (batches(clean_web).get("lastBatch") or 0) >= 3,
             30, step=0.5)
    before = batches(kept_web).get("lastBatch") or 0
    kept.kill()
    clean.kill()
    time.sleep(10)
    kept_web2, clean_web2 = free_port(), free_port()
    kept, clean = follower("committee", kept_web2), follower(None, clean_web2)
    wait_for(lambda: (batches(kept_web2).get("lastBatch") or 0) >= before + 12, 30, step=0.5)
    wait_for(lambda: batches(clean_web2).get("firstBatch") is not None, 15, step=0.5)
    after, plain = batches(kept_web2), batches(clean_web2)
    keeper.stop()
    # (A batch may reach the fleet between reading `before` and the kill: the first one back may be before + 2.)
    check(before >= 3 and after.get("firstBatch") is not None and after["firstBatch"] <= before + 2
          and after.get("missingBatches") == 0 and after.get("lastBatch", 0) >= before + 12,
          f"a fleet with --session killed (SIGKILL) for 10 s while the boat sent: back, it got batches {after.get('firstBatch')}"
          f" to {after.get('lastBatch')}, none missing (it had seen {before})", after)
    check(plain.get("firstBatch") is not None and plain["firstBatch"] >= (after.get("firstBatch") or 0) + 5,
          f"one without a session never sees what was sent while it was down (its first batch back: {plain.get('firstBatch')})",
          plain)
    for process in (kept, clean):
        process.terminate()
    stop(keep_broker)
