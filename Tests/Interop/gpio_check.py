"""The race button on a running gateway, through the real GPIO ioctl and the kernel's event layout.

    gpio_check.py BINARY WORK   (WORK holds gpio-shim.so)

`telltale run` with `[race] button = 17` on a fake chip (the preload shim answers GPIO_V2_GET_LINE_IOCTL and hands
back a FIFO as the line's event descriptor) and the Signal K server. The bench writes struct gpio_v2_line_event
records (falling edge = pressed, the line pulled up) with CLOCK_MONOTONIC times:
1. the request asked for line 17 as a pulled-up input with both edges and a debounce period;
2. a press starts the timer (Signal K navigation.racing.timeToStart about 300 s);
3. a 2-second hold resets it (the value withdrawn), its release adds nothing;
4. a press starts it again; the gateway ran throughout.
Prints ok/FAIL per check and `gpio-check: N passed, M failed`.
"""
import json
import os
import struct
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import Checks, Gateway, free_port, wait_for  # noqa: E402

binary, work = sys.argv[1], sys.argv[2]
check = Checks("gpio-check")
chip = os.path.join(work, "gpiochip9")
open(chip, "w").close()
events = os.path.join(work, "line17.events")
os.mkfifo(events)
requests = os.path.join(work, "requests.log")
web = free_port()
config_text = f"""status_line = false
state_file = ""
[[output]]
url = "stdout:"
computed = false
[race]
button = 17
button_chip = "{chip}"
[web]
listen = "127.0.0.1:{web}"
"""
environment = dict(os.environ, LD_PRELOAD=os.path.join(work, "gpio-shim.so"), FAKE_GPIO_CHIP=chip,
                   FAKE_GPIO_LINE="17", FAKE_GPIO_EVENTS=events, FAKE_GPIO_LOG=requests)
gateway = Gateway(binary, config_text, work=work, name="button", stdout=subprocess.DEVNULL, env=environment)
gateway.start(wait=[web])
# The gateway opened the FIFO's read end when it requested the line: this open then returns at once.
writer = os.open(events, os.O_WRONLY)
sequence = [0]


def edge(rising):
    sequence[0] += 1
    nanoseconds = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    # struct gpio_v2_line_event: u64 timestamp_ns, u32 id (1 rising, 2 falling), offset, seqno, line_seqno, 6 padding.
    os.write(writer, struct.pack("<QIIII6I", nanoseconds, 1 if rising else 2, 17, sequence[0], sequence[0],
                                 *([0] * 6)))


def time_to_start():
    url = f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/navigation/racing/timeToStart/value"
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return json.load(answer)
    except Exception:
        return None


asked = open(requests).read() if os.path.exists(requests) else ""
check("line 17 flags 0x134 debounce 10000 consumer telltale lines 1" in asked,
      "the line requested: line 17, input (0x4), both edges (0x30), pull-up (0x100), 10 ms debounce", asked.strip())
check(time_to_start() is None, "no timer before the button")
edge(False)
time.sleep(0.2)
edge(True)
check(wait_for(lambda: (time_to_start() or 0) > 295, 3), f"a press starts the timer ({time_to_start()} s)")
edge(False)
time.sleep(2.4)
check(wait_for(lambda: time_to_start() is None, 3), "a 2-second hold resets it, while still held")
edge(True)
time.sleep(0.5)
check(time_to_start() is None, "its release adds nothing")
edge(False)
time.sleep(0.15)
edge(True)
check(wait_for(lambda: (time_to_start() or 0) > 295, 3), f"a press starts it again ({time_to_start()} s)")
alive = gateway.alive()
gateway.stop()
os.close(writer)
text = gateway.log()
check(alive, "the gateway ran throughout")
check("race button on line 17" in text and "race button: press: race timer started" in text
      and "race button: hold: race timer reset" in text, "the log says the line, the press and the hold", text[-400:])
check.finish()
