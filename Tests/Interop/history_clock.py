"""One clock (history_check.py): a boat whose instruments speak before its GPS has the time (the machine's clock is
today, the GPS says 21 June 2026): nothing is kept on this machine's day, neither in the history nor in the uplink's
batches (read from mosquitto by paho-mqtt)."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

from support import Gateway, free_port


def one_clock(binary, checks):
    if not shutil.which("mosquitto"):
        print("history-check: mosquitto is not installed: the one-clock check is skipped (make test-deps installs it)")
        return
    import paho.mqtt.client as mqtt

    broker, udp, web2 = free_port(), free_port(socket.SOCK_DGRAM), free_port()
    work = tempfile.mkdtemp(prefix="telltale-clock-")
    open(os.path.join(work, "mosquitto.conf"), "w").write(
        f"listener {broker} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    mq = subprocess.Popen(["mosquitto", "-c", os.path.join(work, "mosquitto.conf")], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    batches = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2) if hasattr(mqtt, "CallbackAPIVersion") else mqtt.Client()
    client.on_message = lambda c, u, m: batches.append(json.loads(m.payload)) if m.topic.endswith("/history") else None
    time.sleep(0.5)
    client.connect("127.0.0.1", broker)
    client.subscribe("telltale/clock/#", qos=1)
    client.loop_start()
    clocked = Gateway(binary, f'''status_line = false
state_file = "{work}/state.toml"
[[input]]
name = "bus"
url = "udp://127.0.0.1:{udp}"
[web]
listen = "127.0.0.1:{web2}"
[uplink]
broker = "mqtt://127.0.0.1:{broker}"
boat = "clock"
batch_seconds = 2
[uplink.rates]
position = 1
wind = 1
''').start(wait=[web2])
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    def nmea(body):
        checksum = 0
        for character in body:
            checksum ^= ord(character)
        return f"${body}*{checksum:02X}\r\n".encode()

    def send(seconds, with_fix):
        for second in range(seconds):
            lines = [nmea("WIMWV,40.0,R,14.0,N,A"), nmea("SDDPT,8.0,0.0")]
            if with_fix:
                stamp = f"1000{second % 60:02d}.00"
                lines.append(nmea(f"GPRMC,{stamp},A,5046.9910,N,00118.4765,W,5.0,100.0,210626,,,A"))
            for line in lines:
                sender.sendto(line, ("127.0.0.1", udp))
            time.sleep(1)

    send(8, with_fix=False)
    send(12, with_fix=True)
    time.sleep(3)
    clocked.stop()
    client.loop_stop()
    mq.terminate()
    days = sorted(os.listdir(os.path.join(work, "history")))
    checks(days == ["2026-06-21.tth"], "instruments before the GPS has the time: the history holds the GPS's day only, "
           "not this machine's", (days, clocked.log()[-600:]))
    stamps = [sample.get("timestamp", "") for batch in batches for sample in batch.get("samples", [])]
    # A reading from before the GPS had the time is re-stamped on its clock (seconds before 10:00), never today's.
    checks(stamps and all(stamp[:16] in ("2026-06-21T09:59", "2026-06-21T10:00") for stamp in stamps),
           f"and every sample the uplink sent ashore is on the GPS's clock ({len(stamps)} samples in "
           f"{len(batches)} batches)", sorted(set(stamp[:16] for stamp in stamps)))
