"""Serial input on a pseudo-terminal, as a USB adapter on the boat's bus (Tests/Interop/serial-check.sh):

1. what the instruments send reaches telltale's TCP output;
2. nothing comes back onto the instruments' line: a pseudo-terminal, like a freshly plugged adapter, echoes what it
   receives until it is put in raw mode, and the gateway opens it raw from its first call, flushing what was echoed;
3. the adapter is unplugged (the pty closed) and plugged back under another name (the stable name, a symbolic link
   as /dev/serial/by-id is, now pointing at a new pty): data flows again without restarting telltale;
4. a device at 38,400 baud on the port read at 4,800 (its bytes as a UART at 4,800 reads them: Tests/Support/uart.py):
   the log says the input's bytes make no sentences and names the speed, Signal K and the panel have a warning
   (`notifications.telltale.input.instruments`); at the right speed, said read again and the warning back to normal.

Prints ok/FAIL per check and `serial-check: N passed, M failed`.

    serial_check.py BINARY
"""
import json
import os
import pty
import select
import socket
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import Checks, Gateway, free_port, sentence, wait_for  # noqa: E402
from uart import misread  # noqa: E402

binary = sys.argv[1]
check = Checks("serial-check")
work = tempfile.mkdtemp()
port = free_port()
web = free_port()
link = os.path.join(work, "nmea-instruments")


def plug():
    """A new adapter: a pty pair, the stable name pointing at its device. Returns the master side."""
    master, slave = pty.openpty()
    device = os.ttyname(slave)
    os.close(slave)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(device, link)
    return master


class Bus(threading.Thread):
    """The instruments: a heading ten times a second onto the line, and whatever comes back from it kept."""

    def __init__(self, master, heading):
        super().__init__(daemon=True)
        self.master, self.heading = master, heading
        self.echoed = b""
        self.running = True
        # A device sending at 38,400 baud to a port read at 4,800: a second's bytes at a time.
        self.wrong_speed = False

    def run(self):
        while self.running:
            try:
                if self.wrong_speed:
                    os.write(self.master, misread([sentence(f"HEHDT,{self.heading}.{k},T") for k in range(10)],
                                                  38400, 4800))
                    time.sleep(0.9)
                else:
                    os.write(self.master, sentence(f"HEHDT,{self.heading}.0,T"))
            except OSError:
                return
            # Until the gateway has the line open, reading the master side fails (EIO): nothing to read yet.
            while select.select([self.master], [], [], 0)[0]:
                try:
                    self.echoed += os.read(self.master, 4096)
                except OSError:
                    break
            time.sleep(0.1)


def received(client, heading, seconds):
    """Headings `heading` read from the TCP output within `seconds`."""
    client.settimeout(0.2)
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            data += client.recv(65536)
        except socket.timeout:
            pass
    return sum(1 for line in data.split(b"\r\n") if line.startswith(f"$HEHDT,{heading}.0".encode()))


def warning():
    """The input's notification in Signal K (its state and message), or None."""
    try:
        url = f"http://127.0.0.1:{web}/signalk/v1/api/vessels/self/notifications/telltale/input/instruments/value"
        with urllib.request.urlopen(url, timeout=2) as answer:
            return json.loads(answer.read())
    except (OSError, ValueError):
        return None


def notification():
    """4. The device at the wrong speed, said; then at the right one, said again."""
    second.wrong_speed = True
    said = wait_for(lambda: "input instruments: " in gateway.log() and "no sentence in them" in gateway.log(), 35)
    line = next((x for x in gateway.log().splitlines() if "no sentence in them" in x), "")
    check(said and "read at 4800 baud: is that the device's speed?" in line,
          f"a device at 38,400 baud on the port read at 4,800: said, with the speed ({line[line.find('input'):]})",
          gateway.log()[-600:])
    raised = wait_for(lambda: (warning() or {}).get("state") == "warn", 5)
    check(raised, f"and in Signal K, for the panel: {warning()}")
    second.wrong_speed = False
    back = wait_for(lambda: "its lines are read again" in gateway.log(), 35)
    check(back and (warning() or {}).get("state") == "normal",
          f"at the right speed: read again, the warning {(warning() or {}).get('state')}")


# The bus talks before the gateway opens the line: the tty echoes it (ECHO is a new tty's default) until then.
first = Bus(plug(), 111)
first.start()
time.sleep(0.5)
gateway = Gateway(binary, f"""status_line = false
state_file = ""
[[input]]
name = "instruments"
url = "serial://{link}?baud=4800"
[[output]]
url = "tcp://127.0.0.1:{port}"
computed = false
[web]
listen = "127.0.0.1:{web}"
""", work=work, runner=os.environ.get("SERIAL_RUNNER", "").split()).start(wait=[port])
client = socket.create_connection(("127.0.0.1", port))
count = received(client, 111, 3)
check(count >= 10, f"serial data reaches the TCP output ({count} sentences in 3 s)", gateway.log()[-600:])
# What the tty echoed before the gateway's open is gone with its flush; nothing after.
first.echoed = b""
time.sleep(2)
check(first.echoed == b"", f"nothing comes back onto the instruments' line ({len(first.echoed)} bytes echoed)",
      repr(first.echoed[:120]))

first.running = False
first.join()
os.close(first.master)  # unplugged
time.sleep(1.5)
second = Bus(plug(), 222)  # plugged in again, another device behind the same stable name
second.start()
count = received(client, 222, 5)
check(count >= 10, f"after unplug and replug, data flows again without a restart ({count} sentences)",
      gateway.log()[-600:])
check("reopening" in gateway.log() and "open at 4800 baud" in gateway.log(),
      "the log says the device was lost and opened again")
notification()
second.running = False
status = gateway.interrupt()
check(status == 0, f"SIGINT stops the gateway (status {status})")
check.finish()
