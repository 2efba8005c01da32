"""Telltale on the emulated NMEA 2000 bus (image_check.py, stage 3b): both CAN controllers up at 250 kbit/s; its true
wind, heading, heel and pitch and route guidance read back with candump and decoded by PyPI's nmea2000; ISO
requests answered (claim, product information) and refused (NAK); its address given up to a lower NAME and defended
against a higher one."""
import math
import re
import time

from emulated_pi import SerialFeed
from image_bus import bus_messages, capture, navigating
from image_support import http
from support import wait_for


def own_frames(check, feed, output, pi):
    """What Telltale sends on can0, read on can1; its answers to ISO requests; its address by NAME."""
    links = pi.out("ip -details link show can0; ip -details link show can1")
    check(links.count("state UP") + links.count(",UP,") >= 2 and links.count("bitrate 250000") == 2,
          "the image brings both CAN interfaces up at 250 kbit/s (systemd-networkd, kvaser_pci)", links[:600])
    feed.stop()
    feed = SerialFeed(pi.chardevs["adapter"], navigating, rate=10)
    wait_for(lambda: "route" in http(pi, "/signalk/v2/api/vessels/self/navigation/course")[1], 20, step=1)
    time.sleep(4)
    own = bus_messages(capture(pi, 6))
    ours = {source for pgn, source, _ in own if pgn == 130306}
    address = next(iter(ours), None)
    winds = [f for pgn, _, f in own if pgn == 130306]
    true_boat = [f for f in winds if f.get("reference") == 3]
    tcp = [line for _, line in output.lines()[-50:] if re.match(r"^\$IIMWV,[^,]*,T,", line)]
    agree = False
    if true_boat and tcp:
        fields = tcp[-1].split(",")
        angle, knots = float(fields[1]), float(fields[3])
        n2k_angle = math.degrees(true_boat[-1]["windAngle"]) % 360
        agree = abs((n2k_angle - angle + 180) % 360 - 180) < 1.5 and abs(true_boat[-1]["windSpeed"] / 0.514444 - knots) < 0.3
    check(len(ours) == 1 and agree,
          f"Telltale's true wind on the bus (130306, boat-referenced, from address {address}) is what it says on TCP, "
          "read back with candump and decoded by nmea2000", f"{true_boat[-1:]} against {tcp[-1:]}")
    pgns = {pgn for pgn, source, _ in own if source == address}
    check({127257, 129283, 129284, 127250} <= pgns and len({f.get("sid") for p, s, f in own if s == address and p in
                                                            (130306, 127250)}) > 1,
          "heel and pitch (127257), the heading (127250), cross-track error and navigation data (129283, 129284) go "
          "out too, a SID per tick", str(sorted(pgns)))
    claim = next((line for line in capture(pi, 3, f"cansend can1 18EA{address:02X}42#00EE00").splitlines()
                  if f" 18EEFF{address:02X}#" in line), "") if address is not None else ""
    name = int.from_bytes(bytes.fromhex(claim.split("#")[1]), "little") if claim else 0
    check(name != 0, "an ISO request for the address claim (cansend) is answered with Telltale's claim", claim)
    answers = bus_messages(capture(pi, 4, f"cansend can1 18EA{address or 0:02X}42#14F001; sleep 0.5; "
                                      f"cansend can1 18EA{address or 0:02X}42#00F201"))
    product = next((f for pgn, source, f in answers if pgn == 126996 and source == address), {})
    nak = next((f for pgn, source, f in answers if pgn == 59392 and source == address), {})
    model = product.get("modelId", "")
    model = model.decode(errors="replace") if isinstance(model, bytes) else str(model)
    check(model.startswith("Telltale gateway") and nak.get("pgn") == 127488,
          "a request for its product information is answered (126996, decoded by nmea2000); one for a PGN it does not "
          "answer is refused with an ISO NAK (59392)", f"{product} {nak}")
    lower, higher = name - 1, name + 1
    moved = capture(pi, 3, f"cansend can1 18EEFF{address or 0:02X}#{lower.to_bytes(8, 'little').hex().upper()}")
    claims = [line for line in moved.splitlines() if "18EEFF" in line and
              line.split("#")[1].upper() == name.to_bytes(8, "little").hex().upper()]
    new_address = int(claims[-1].split("#")[0][-2:], 16) if claims else None
    check(new_address is not None and new_address != address,
          f"a second node claiming address {address} with a lower NAME makes Telltale move (to {new_address})", moved[-400:])
    defended = capture(pi, 3, f"cansend can1 18EEFF{new_address or 0:02X}#{higher.to_bytes(8, 'little').hex().upper()}")
    check(any(f" 18EEFF{new_address or 0:02X}#" in line and line.split("#")[1].upper() ==
              name.to_bytes(8, "little").hex().upper() for line in defended.splitlines()),
          f"one claiming address {new_address} with a higher NAME is answered with Telltale's claim: the address is "
          "defended", defended[-400:])
    return feed
