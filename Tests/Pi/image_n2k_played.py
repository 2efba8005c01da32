"""A recorded bus played onto the emulated one with canplayer (image_check.py, stage 3b), the serial instruments quiet:
the bus alone makes the computed true wind on TCP and the depth in Signal K from its device; `telltale n2k` lists it."""
import json
import os
import re

from image_support import computed_true_wind, http
from support import wait_for


def recorded_bus(ROOT, check, feed, output, pi):
    """candumpSample3 (or the project's own recording) played with canplayer, coming out computed."""
    # A recorded bus played onto it by canplayer, the serial instruments quiet: the bus alone makes the true wind.
    feed.stop()
    SHARED = os.path.join(ROOT, "..", "shared", "fixtures", "n2k", "candumpSample3.txt")
    if os.path.exists(SHARED):
        recording, named = open(SHARED).read(), "candumpSample3.txt (a real bus)"
        recording = "".join(re.sub(r"\) \S+ ", ") can1 ", line) for line in recording.splitlines(True)
                            if line.startswith("("))
    else:
        print("image-check: ../shared/fixtures/n2k is absent: the project's own recording is played (skipped: a real bus)")
        # Telltale's own recording, its sender given another address and its claims left out.
        recording, named = "", "Fixtures/n2k/telltale-demo.candump"
        for line in open(os.path.join(ROOT, "Fixtures", "n2k", "telltale-demo.candump")):
            stamp, _, frame = line.split()
            identifier, data = frame.split("#")
            if identifier[2:4] == "EE":
                continue
            recording += f"{stamp} can1 {identifier[:6]}42#{data}\n"
    pi.put("/run/bus.log", recording.encode())
    before = len(output.lines())
    pi.ssh("systemd-run --quiet --unit=canplayer canplayer -I /run/bus.log -l i", timeout=30)
    played = wait_for(lambda: [line for line in computed_true_wind(output.lines()[before:]) if ",A*" in line], 60, step=1)


    depth_seen = {"source": ""}


    def bus_depth_source():
        """Whether the depth in Signal K is the bus's yet (its PGN comes less often than the wind's)."""
        depth = json.loads(http(pi, "/signalk/v1/api/vessels/self/environment/depth/belowTransducer")[1] or "{}")
        depth_seen["source"] = depth.get("$source", "")
        return depth_seen["source"].startswith("n2k")


    wait_for(bus_depth_source, 40, step=2)
    source = depth_seen["source"]
    check(played and source.startswith("n2k"),
          f"{named} played with canplayer comes out as computed true wind on TCP; the bus's depth is in Signal K from "
          f"its device ({source})",
          f"{[line for _, line in output.lines()[before:]][-8:]} " + pi.out(
              "systemctl status canplayer --no-pager | head -n 5; wc -l /run/bus.log; "
              "journalctl -u telltale -b --no-pager | tail -n 6"))
    listing = pi.out("telltale n2k")
    check("n2k:" in listing and "Wind Data" in listing, "`telltale n2k` on the Pi lists the bus's devices and what they "
          "send", listing[:400])
    return SHARED
