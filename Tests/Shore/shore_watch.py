"""The boat watch ashore (shore_accounts_check.py, part 7): a third real gateway, `cargo`, at anchor on a live GPS
(UDP), its anchor dropped with `telltale anchor drop`, its uplink through the same broker; the boat drags. The shore
says the drag once, with the distance from the anchor (a single bad fix before it said nothing), shows it to cargo's
owner and to no other owner, takes the owner's acknowledgement, and says all clear when the anchor is raised. brise's
gateway stopped: "switched off" after --silent-after; started again: all clear. Each by e-mail to the boat's owner
through a real SMTP server, and the drag pushed to cargo's owner's phone (shore_post.py)."""
import json
import math
import os
import socket
import sqlite3
import subprocess
import threading
import time

from shore_post import Phone, vapid
from support import Gateway, free_port, nmea_position, sentence, wait_for

ANCHORAGE = (47.52, -3.10)
EARTH = 6371008.8


def at(metres):
    """The point `metres` south of the anchorage."""
    return ANCHORAGE[0] - math.degrees(metres / EARTH), ANCHORAGE[1]


def cargo_at_anchor(binary, broker, work):
    """The gateway and the state of its GPS (`boat["metres"]` south of the anchorage, `boat["jump"]` one bad fix)."""
    folder = os.path.join(work, "cargo")
    os.makedirs(os.path.join(folder, "state"))
    udp, web = free_port(socket.SOCK_DGRAM), free_port()
    gateway = Gateway(binary, f"""status_line = false
state_file = "{folder}/state/state.toml"
[[input]]
name = "gps"
url = "udp://127.0.0.1:{udp}"
[anchor]
radius = 30
[web]
listen = "127.0.0.1:{web}"
[uplink]
broker = "mqtt://127.0.0.1:{broker}"
boat = "cargo"
batch_seconds = 2
send = ["position", "anchor", "alarms"]
[uplink.rates]
position = 2
anchor = 2
""", work=folder, name="cargo").start(wait=[web])
    boat = {"metres": 0.0, "jump": False, "running": True}

    def gps():
        sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        while boat["running"]:
            lat, lon = at(boat["metres"] + (400 if boat["jump"] else 0))
            boat["jump"] = False
            stamp = time.strftime("%H%M%S", time.gmtime())
            day = time.strftime("%d%m%y", time.gmtime())
            for body in (f"GPRMC,{stamp}.00,A,{nmea_position(lat, 'NS')},{nmea_position(lon, 'EW')},0.2,180.0,"
                         f"{day},,,A", "HEHDT,0.0,T"):
                sender.sendto(sentence(body), ("127.0.0.1", udp))
            time.sleep(1)

    threading.Thread(target=gps, daemon=True).start()
    return gateway, boat, web


def subscribe_phones(check, get, post, cookies, office):
    """Carol's phone, and a second whose push service will say it is gone (410), subscribed on the shore."""
    base = f"https://localhost:{office.push_port}/push"
    phone, gone = Phone(base + "/carol"), Phone(base + "/gone")
    status, _, body = get("/telltale/v1/fleet/push/key", cookies["carol"])
    key = json.loads(body or b"{}").get("publicKey", "")
    answers = [post("/telltale/v1/fleet/push/subscribe", cookies["carol"], p.subscription) for p in (phone, gone)]
    bad = post("/telltale/v1/fleet/push/subscribe", cookies["carol"], {"endpoint": "http://x/", "keys": {}})
    anonymous = post("/telltale/v1/fleet/push/subscribe", "x=y", phone.subscription)
    inside = post("/telltale/v1/fleet/push/subscribe", cookies["carol"],
                  Phone(f"https://127.0.0.1:{office.push_port}/push/x").subscription)
    check(status == 200 and len(key) == 87 and answers == [201, 201] and bad == 400 and anonymous == 401
          and inside == 403,
          f"carol's two phones subscribed for pushes ({answers}) with the shore's VAPID key (65 bytes); a "
          f"subscription that is not one 400, without a session {anonymous}, to a host that is no push service "
          f"{inside}", {"key": key, "bad": bad})
    return phone, key


def delivered(check, office, phone, key, crossed, store):
    """The drag's e-mail to carol once (the boat's own anchor alarm or the shore's watch, whichever says it first: one
    message), over TLS and logged in, with the boat, position and distance, within a minute; its push decrypted on her
    phone; the gone phone forgotten."""
    wait_for(lambda: office.mails("carol@example.org", "dragging"), 90, step=1)
    mails = office.mails("carol@example.org", "dragging")
    when, message, text, tls, authenticated = mails[0] if mails else (0, {}, "", False, False)
    late = when - crossed if mails else -1
    check(len(mails) == 1 and tls and authenticated and "cargo" in str(message["Subject"]) and "Position: 47°" in text
          and "From the anchor: " in text and 0 < late < 60,
          f"the drag e-mailed to cargo's owner once (the boat's alarm and the shore's watch: one message) through the "
          f"SMTP server (STARTTLS, AUTH), {late:.0f} s after "
          f"leaving the circle: \"{message['Subject'] if mails else ''}\"", text[:400])
    wait_for(lambda: any(p[1] == "/push/carol" for p in office.pushes), 30, step=1)
    pushes = [p for p in office.pushes if p[1] == "/push/carol"]
    read = [phone.read(p[2], p[3]) for p in pushes]
    claims, why = vapid(pushes[0][2], f"https://localhost:{office.push_port}", key) if pushes else (None, "none")
    check(read and read[0] and "dragging" in read[0].get("body", "") and read[0].get("boat") == "cargo"
          and claims is not None and pushes[0][2].get("Content-Encoding") == "aes128gcm",
          f"pushed to her phone: decrypted by http_ece with the phone's keys ({read[0] if read else None}); the "
          "VAPID token verified (ES256, the audience, a mailto contact)", why)
    db = sqlite3.connect(store)
    forgotten = wait_for(lambda: db.execute("SELECT count(*) FROM shore_push WHERE endpoint LIKE '%/gone'")
                         .fetchone()[0] == 0, 30, step=1)
    kept = db.execute("SELECT count(*) FROM shore_push WHERE endpoint LIKE '%/carol'").fetchone()[0]
    check(forgotten and kept == 1, "the phone whose push service answered 410 Gone is forgotten, hers kept")
    return read[0] if read else None


def boat_watch(check, binary, broker, work, log, get, post, login, cookies, brise, phone, office, store):
    gateway, boat, cargo_web = cargo_at_anchor(binary, broker, work)
    carol_phone, key = subscribe_phones(check, get, post, cookies, office)
    try:
        time.sleep(3)
        drop = subprocess.run([binary, "anchor", "drop", "--port", str(cargo_web)], capture_output=True, text=True,
                              timeout=10)
        time.sleep(8)
        boat["jump"] = True  # one fix 400 m off: no drag
        time.sleep(12)
        quiet = "cargo is dragging" not in log()
        started = time.monotonic()
        crossed = [None]

        def drag():
            while boat["running"] and boat["metres"] < 200:
                boat["metres"] += 2
                if boat["metres"] > 30 and crossed[0] is None:
                    crossed[0] = time.monotonic()
                time.sleep(1)

        threading.Thread(target=drag, daemon=True).start()
        said = wait_for(lambda: "fleet: watch: cargo is dragging its anchor" in log(), 120, step=1)
        late = time.monotonic() - (crossed[0] or started)
        line = next((l for l in log().split("\n") if "cargo is dragging" in l), "")
        alerts = json.loads(get("/telltale/v1/fleet/alerts", cookies["carol"])[2] or b"{}").get("alerts", [])
        others = json.loads(get("/telltale/v1/fleet/alerts", cookies["rc"])[2] or b"{}").get("alerts", [])
        drag_alert = next((a for a in alerts if a.get("kind") == "anchor"), {})
        check(drop.returncode == 0 and quiet and said and drag_alert.get("boat") == "cargo"
              and drag_alert.get("distance", 0) > 30 and not [a for a in others if a.get("boat") == "cargo"],
              f"cargo drags: a single bad fix said nothing; the drag said once {late:.0f} s after leaving the 30 m "
              f"circle ({line.split('watch: ')[-1]}); cargo's owner sees it on /telltale/v1/fleet/alerts, the "
              "committee (cargo not in its fleet file) does not", {"alerts": alerts, "others": others,
                                                                    "drop": drop.stdout + drop.stderr})
        payload = delivered(check, office, carol_phone, key, crossed[0] or started, store)
        sent = next((l.split("fleet: post: ")[-1] for l in log().split("\n")
                     if "fleet: post:" in l and "carol@example.org" in l and "delivered" in l), "")
        print(f"  note the shore's part of it: {sent}")
        refused = post("/telltale/v1/fleet/alerts/acknowledge?boat=cargo&kind=anchor", cookies["anne"])
        phone(payload)
        listed = json.loads(get("/telltale/v1/fleet/alerts", cookies["carol"])[2] or b"{}").get("alerts", [])
        taken = 200 if any(a.get("kind") == "anchor" and a.get("acknowledged") for a in listed) else 0
        raised = subprocess.run([binary, "anchor", "raise", "--port", str(cargo_web)], capture_output=True, text=True,
                                timeout=10)
        clear = wait_for(lambda: "all clear: cargo the anchor is up" in log(), 30, step=1)
        check(refused == 403 and taken == 200 and raised.returncode == 0 and clear
              and log().count("cargo is dragging its anchor") == 1,
              f"another owner may not acknowledge it ({refused}), cargo's owner has (on the phone); the anchor raised: "
              "all clear, and the drag said once in all", raised.stdout + raised.stderr + log()[-300:])
    finally:
        boat["running"] = False
        gateway.stop()
    brise.stop()
    off = wait_for(lambda: "brise was switched off (its gateway said goodbye" in log(), 60, step=1)
    brise.start()
    back = wait_for(lambda: "all clear: brise heard again" in log(), 60, step=1)
    check(off and back, "brise's gateway stopped: said switched off after --silent-after (a goodbye, not a vanishing);"
          " started again: all clear", log()[-500:])
    wait_for(lambda: office.mails("bob@example.org", "all clear: brise"), 30, step=1)
    off_mail = office.mails("bob@example.org", "switched off")
    back_mail = office.mails("bob@example.org", "all clear: brise")
    check(len(off_mail) == 1 and len(back_mail) == 1 and not office.mails("carol@example.org", "brise"),
          "brise's owner e-mailed: switched off, then all clear (once each; cargo's owner not told of brise)",
          [m[1]["Subject"] for m in office.mails("bob@example.org", "")])
