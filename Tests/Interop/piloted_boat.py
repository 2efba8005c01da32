"""A boat simulated by a check and steered by the pilot on the bus (autopilot_bus.PilotBus): once the pilot is in route
(track) mode it steers to the bearing Telltale's 129284 gives the pilot, as a pilot in track mode does, turning at most
10° a second; its GPS fix (RMC) and heading (HDT) go to the gateway's UDP input five times a second."""
import math
import socket
import time

ROUTE_MODE = 384  # SEATALK_PILOT_MODE_16: track


def destination(lat, lon, bearing, metres):
    """The point `metres` from (lat, lon) on `bearing` (degrees), on a sphere: plenty for a few hundred metres."""
    R = 6371008.8
    p1, l1, b, d = math.radians(lat), math.radians(lon), math.radians(bearing), metres / R
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(b))
    l2 = l1 + math.atan2(math.sin(b) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    return math.degrees(p2), math.degrees(l2)


def distance(a, b):
    """Metres between two (lat, lon) on a sphere."""
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(b[1] - a[1]) / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


def bearing(a, b):
    """The initial great-circle bearing (degrees) from a to b, each (lat, lon)."""
    p1, p2, dl = math.radians(a[0]), math.radians(b[0]), math.radians(b[1] - a[1])
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.atan2(y, x)) % 360


def sentence(body):
    checksum = 0
    for c in body.encode():
        checksum ^= c
    return f"${body}*{checksum:02X}\r\n".encode()


class PilotedBoat:
    """The boat at `start`, its clock `clock()` (UNIX seconds: the wall clock, or a forecast's day), its track kept."""

    def __init__(self, bus, udp, start, heading=0.0, clock=time.time):
        self.bus, self.udp, self.clock = bus, udp, clock
        self.lat, self.lon = start
        self.heading, self.speed = heading, 0.0
        self.track = []
        self.sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    def sail(self, seconds, engaged_speed=15.0):
        """The boat for `seconds`, five fixes a second: steered by the pilot to 129284's bearing while in route mode
        (at `engaged_speed` m/s), else on as it was."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            with self.bus.lock:
                mode, bearing = self.bus.mode, self.bus.bearing
            if mode == ROUTE_MODE and bearing is not None:
                self.speed = engaged_speed
                turn = (math.degrees(bearing) - self.heading + 540) % 360 - 180
                self.heading = (self.heading + max(-2, min(2, turn))) % 360
                with self.bus.lock:
                    self.bus.heading = math.radians(self.heading)
            self.lat, self.lon = destination(self.lat, self.lon, self.heading, self.speed * 0.2)
            self.track.append((self.lat, self.lon))
            self.send()
            time.sleep(0.2)

    def send(self):
        now = time.gmtime(self.clock())
        stamp = time.strftime("%H%M%S", now)
        lat, lon = abs(self.lat), abs(self.lon)
        fix = (f"GPRMC,{stamp}.00,A,{int(lat):02d}{(lat % 1) * 60:07.4f},{'N' if self.lat >= 0 else 'S'},"
               f"{int(lon):03d}{(lon % 1) * 60:07.4f},{'E' if self.lon >= 0 else 'W'},"
               f"{self.speed * 3600 / 1852:.1f},{self.heading:.1f},{time.strftime('%d%m%y', now)},,,A")
        for body in (fix, f"HEHDT,{self.heading:.1f},T"):
            self.sender.sendto(sentence(body), ("127.0.0.1", self.udp))

    def closest(self, point):
        """How near (metres) the track came to `point` (lat, lon)."""
        return min(distance(p, point) for p in self.track)
