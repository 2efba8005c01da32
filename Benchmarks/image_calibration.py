"""The image bench's calibration part (image_bench.py): the daemon's memory and loop while the calibration is learnt
on the Pi.

The race of the yacht Irene's day (../shared/fixtures/calibration, Lake Geneva 28 June 2014, from 12:45: tacks and
gybes every few minutes) put on the data partition, its dates moved to tomorrow (the history keeps it on the fixes'
clock as its newest day, after what the bench's own instruments left on the system clock), and played as an input at
5 times its speed (at 20 times the history keeps only about half the seconds), the bench's instruments stopped first
and the gateway reloaded on it. With 50 minutes of the race in the history the learner is started through /telltale/v1/calibration: it runs in its own process (`telltale calibrate sailing
--history`). Measured: how long it took on the emulated Pi, its own peak (VmHWM, read while it runs), the daemon's
VmRSS and RssAnon each second before, while and after it learns (the report then held), and the engine's late ticks
from the journal in each minute.
"""
import os
import sys
import time

from image_worker import daemon, say_memory, stalls, watch

LOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "fixtures", "calibration",
                   "irene-2014-06-28.txt")
SPEED = 5
FROM = "124500"


def checksum(body):
    value = 0
    for c in body.encode():
        value ^= c
    return f"{value:02X}"


def moved_to(day, text):
    """The log from the first fix at FROM, with every RMC's date made `day` (ddmmyy), its checksum made again."""
    lines = []
    started = False
    for line in text.splitlines():
        started = started or (line[3:6] == "RMC" and line.split(",")[1] >= FROM)
        if not started:
            continue
        if line.startswith("$") and line[3:6] == "RMC" and "*" in line:
            fields = line[1:line.index("*")].split(",")
            if len(fields) > 9:
                fields[9] = day
                body = ",".join(fields)
                line = f"${body}*{checksum(body)}"
        lines.append(line)
    return ("\n".join(lines) + "\n").encode()


def samples_for(pi, seconds, into):
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        into.append(daemon(pi))
        time.sleep(1)


def calibration_phase(pi, request, token, feed, play=600):
    if not os.path.exists(LOG):
        print("calibration on the image: ../shared/fixtures/calibration is absent (skipped)")
        return
    if token is None:
        print("calibration on the image: no approved device to start the learner (skipped)")
        return
    feed.stop()
    tomorrow = pi.out("date -u -d tomorrow +%d%m%y")
    pi.put("/var/lib/telltale/irene.txt", moved_to(tomorrow, open(LOG).read()))
    pi.ssh("chown telltale: /var/lib/telltale/irene.txt")
    pi.ssh(f"printf '\\n[[input]]\\nname = \"irene\"\\nurl = \"file:/var/lib/telltale/irene.txt\"\\nspeed = {SPEED}\\n' "
           ">> /etc/telltale/telltale.toml && systemctl reload telltale")
    time.sleep(play)  # the race into the history: play × SPEED seconds of it
    quiet_clock = pi.out("date +%s")
    before = []
    samples_for(pi, 30, before)
    asked, asked_clock = time.monotonic(), pi.out("date +%s")
    code, _ = request("/telltale/v1/calibration", "POST", b"", token=token)
    during, learner_peak, answer = watch(pi, request, "/telltale/v1/calibration", "calibrate sailing",
                                         ("learnt", "failed"), asked)
    took = time.monotonic() - asked
    after = []
    samples_for(pi, 30, after)
    end_clock = pi.out("date +%s")
    said = pi.out("journalctl -u telltale --no-pager -o cat | grep -E 'calibration: (learnt|learning)' | tail -n 2 "
                  "| tr '\\n' ' '")
    report = answer.get("report") or {}
    print(f"calibration on the image: POST {code}, {answer.get('state')} in {took:.0f} s as the bench saw it "
          f"({said.strip()}); {report.get('samples', 0)} s of sailing, {len(report.get('manoeuvres', []))} "
          f"manoeuvres; {answer.get('message', '')}")
    print(f"calibration on the image: the learner's own peak VmHWM {learner_peak} kB")
    say_memory("calibration on the image", (("the 30 s before", before), ("the seconds it learnt", during),
                                             ("the 30 s after", after)))
    print(f"calibration on the image: the engine's own late ticks (from the journal): "
          f"{stalls(pi, quiet_clock, asked_clock)} in the 30 s before, {stalls(pi, asked_clock, end_clock)} from the "
          "POST to 30 s after the report")
    sys.stdout.flush()

