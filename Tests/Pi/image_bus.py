"""The NMEA 2000 bus as the image check reads it (image_check.py, stage 3b): the instruments with a GPS on the route,
candump's lines decoded by PyPI's nmea2000, and what crosses the emulated bus from can1 while a command runs on the
Pi."""
import time

from nmea2000.decoder import NMEA2000Decoder

from image_support import instruments
from support import sentence


def navigating(index):
    """The instruments, and a GPS near the route's start (its time now): the route is followed."""
    if index % 4 == 3:
        now = time.gmtime()
        return sentence(f"GPRMC,{time.strftime('%H%M%S', now)}.00,A,5046.8000,N,00118.0000,W,6.0,135.0,"
                        f"{time.strftime('%d%m%y', now)},,,A")
    return instruments(index)


def bus_messages(log):
    """candump -L lines decoded by nmea2000 (its own fast-packet assembly): (PGN, source, {field id: value})."""
    decoder = NMEA2000Decoder()
    out = []
    for line in log.splitlines():
        try:
            message = decoder.decode(line.strip())
        except Exception:
            continue
        if message is not None:
            out.append((message.PGN, message.source, {f.id: (f.raw_value if f.raw_value is not None else f.value)
                                                       for f in message.fields}))
    return out


def capture(pi, seconds, command=""):
    """What crosses the bus, from can1, for `seconds`, with `command` run on the Pi half a second in."""
    return pi.out(f"sh -c 'timeout {seconds} candump -L can1 & sleep 0.5; {command or 'true'}; wait'",
                  timeout=seconds + 30)
