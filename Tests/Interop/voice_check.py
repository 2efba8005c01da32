"""Voice: the race countdown spoken on time, every announcement audible, a missing audio device survived.

    voice_check.py BINARY

1. `telltale run` with a 15-second start sequence (`[race] sequence = [0.25, 0]`) and `[voice] command` set to a
   script that writes down when it was run and with what words; `telltale race start` starts the timer. Every
   announcement must come, in order, within 0.2 s of its due time.
2. Each announcement it made is rendered to WAV by espeak-ng (`-w`) and must be non-silent by sox (`stat`: longer
   than 0.2 s, RMS amplitude above 0.01).
3. The real espeak-ng into a missing ALSA device (`device = "hw:99"`): the failure is logged once, the gateway runs
   on, and its NMEA output never stops.
Prints ok/FAIL per check and `voice-check: N passed, M failed`.
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import ROOT, Checks, Gateway, free_port, demo_input  # noqa: E402

binary = sys.argv[1]
root = ROOT
work = tempfile.mkdtemp()
check = Checks("voice-check")


def gateway(voice, sequence):
    web, nmea = free_port(), free_port()
    gateway = Gateway(binary, f"""status_line = false
state_file = ""
{demo_input('demo', loop=True)}[[output]]
url = "tcp://127.0.0.1:{nmea}"
[race]
sequence = {sequence}
[voice]
{voice}
[web]
listen = "127.0.0.1:{web}"
""", work=work, name=f"voice-{web}").start(wait=[web])
    return gateway, web, nmea, gateway.log_path


# ---- 1. On time, in order --------------------------------------------------------------------------------------
said = os.path.join(work, "said.log")
script = os.path.join(work, "say.sh")
with open(script, "w") as f:
    f.write(f'#!/bin/sh\necho "$(date +%s.%N) $*" >> "{said}"\n')
os.chmod(script, 0o755)
running, web, _, _ = gateway(f'command = "{script}"', "[0.25, 0]")
before = time.time()
started = subprocess.run([binary, "race", "start", "--port", str(web)], capture_output=True, text=True)
after = time.time()
check(started.returncode == 0, "telltale race start reaches the running gateway", started.stderr.strip())
time.sleep(17)
running.stop()
heard = []
if os.path.exists(said):
    for line in open(said):
        stamp, _, text = line.strip().partition(" ")
        heard.append((float(stamp), text))
expected = ["ten", "nine", "eight", "seven", "six", "five", "four", "three", "two", "one", "start"]
check([text for _, text in heard] == expected, "the countdown is spoken, every announcement once, in order",
      str([text for _, text in heard]))
late = []
for (at, text), seconds_before in zip(heard, range(10, -1, -1)):
    # Due at the gun (15 s after the start command) less the seconds it announces; the command itself took
    # `after - before`, so the due time is known to within that.
    earliest = before + 15 - seconds_before
    latest = after + 15 - seconds_before
    if not (earliest - 0.2 <= at <= latest + 0.2):
        late.append(f"{text}: {at - earliest:+.3f} s")
check(heard and not late, f"each within 0.2 s of its due time (the start command took {(after - before) * 1000:.0f} ms)",
      ", ".join(late))

# ---- 2. Audible ------------------------------------------------------------------------------------------------
silent = []
for _, text in heard:
    wav = os.path.join(work, re.sub(r"\W+", "-", text) + ".wav")
    subprocess.run(["espeak-ng", "-w", wav, text], check=False)
    stat = subprocess.run(["sox", wav, "-n", "stat"], capture_output=True, text=True).stderr
    length = re.search(r"Length \(seconds\):\s+([0-9.]+)", stat)
    rms = re.search(r"RMS\s+amplitude:\s+([0-9.]+)", stat)
    if not (length and rms and float(length.group(1)) > 0.2 and float(rms.group(1)) > 0.01):
        silent.append(f"{text}: {stat.strip()[:120]}")
check(heard and not silent, f"each of the {len(heard)} announcements renders to audible speech (espeak-ng, sox)",
      "; ".join(silent))
for words in ["heel over 25 degrees", "four minutes", "thirty seconds"]:
    wav = os.path.join(work, "extra.wav")
    subprocess.run(["espeak-ng", "-w", wav, words], check=False)
    stat = subprocess.run(["sox", wav, "-n", "stat"], capture_output=True, text=True).stderr
    rms = re.search(r"RMS\s+amplitude:\s+([0-9.]+)", stat)
    check(rms and float(rms.group(1)) > 0.01, f"'{words}' renders to audible speech")

# ---- 3. No audio device ----------------------------------------------------------------------------------------
running, web, nmea, log = gateway('device = "hw:99"', "[0.1, 0]")
reader = socket.create_connection(("127.0.0.1", nmea))
reader.settimeout(0.5)
subprocess.run([binary, "race", "start", "--port", str(web)], capture_output=True)
gaps, last, count = [], time.monotonic(), 0
end = time.monotonic() + 9
while time.monotonic() < end:
    try:
        data = reader.recv(65536)
        count += data.count(b"\r\n")
        now = time.monotonic()
        gaps.append(now - last)
        last = now
    except socket.timeout:
        pass
alive = running.alive()
running.stop()
text = open(log).read()
reports = text.count("voice:")
check(alive, "no audio device: the gateway runs on")
check(reports == 1, f"the failure is logged once ({reports} times)", text[-300:])
check(count > 100 and max(gaps) < 1.0, f"NMEA output went on throughout ({count} sentences, longest gap "
      f"{max(gaps) * 1000:.0f} ms)")

check.finish()
