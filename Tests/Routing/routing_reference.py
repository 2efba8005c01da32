"""The route check's independent reckoning (routing_check.py): the GRIB's wind as ecCodes reads it, interpolated as any
GRIB reader does (bilinear between the grid's points, linear between its times), the polar read from its table (linear
between its rows and columns, scaled down below the lightest wind and from head to wind to its first angle), a leg
sailed at the polar's speed minute by minute, and a brute-force search over a fine lattice of the area's water. None
of Telltale's code."""
import heapq
import json
import math
import subprocess

R = 6371008.8
KNOT = 1852 / 3600


class Wind:
    """The GRIB's 10 m wind, dumped by Debian's python3-eccodes."""

    def __init__(self, grib, here):
        code = (f"import sys, json; sys.path.insert(0, {here!r}); import eccodes\n"
                f"f = open({grib!r}, 'rb'); out = {{}}\n"
                "while True:\n"
                "    h = eccodes.codes_grib_new_from_file(f)\n"
                "    if h is None: break\n"
                "    key = (eccodes.codes_get(h, 'shortName'), eccodes.codes_get(h, 'validityDate'),\n"
                "           eccodes.codes_get(h, 'validityTime'))\n"
                "    out.setdefault('grid', [eccodes.codes_get(h, k) for k in ('latitudeOfFirstGridPointInDegrees',\n"
                "        'longitudeOfFirstGridPointInDegrees', 'Ni', 'Nj', 'iDirectionIncrementInDegrees')])\n"
                "    out['%s %d %04d' % key] = [float(v) for v in eccodes.codes_get_values(h)]\n"
                "    eccodes.codes_release(h)\n"
                "print(json.dumps(out))\n")
        data = json.loads(subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True,
                                         check=True).stdout)
        self.north, self.west, self.ni, self.nj, self.step = data.pop("grid")
        if self.west > 180:
            self.west -= 360
        import calendar
        self.times, self.u, self.v = [], {}, {}
        for key, values in data.items():
            short, date, hhmm = key.split()
            t = calendar.timegm((int(date[:4]), int(date[4:6]), int(date[6:]), int(hhmm[:2]), int(hhmm[2:]), 0))
            (self.u if short == "10u" else self.v)[t] = values
            if t not in self.times:
                self.times.append(t)
        self.times.sort()

    def at(self, lat, lon, t):
        """(u, v) m/s at a place and UNIX time; None outside the grid or its times."""
        if not self.times[0] <= t <= self.times[-1]:
            return None
        x = (lon - self.west) / self.step
        y = (self.north - lat) / self.step
        if not (0 <= x <= self.ni - 1 and 0 <= y <= self.nj - 1):
            return None
        i = min(range(len(self.times) - 1), key=lambda k: 0 if self.times[k] <= t <= self.times[k + 1] else 1)
        t0, t1 = self.times[i], self.times[i + 1]
        f = (t - t0) / (t1 - t0)
        out = []
        for field in (self.u, self.v):
            a, b = self._bilinear(field[t0], x, y), self._bilinear(field[t1], x, y)
            out.append(a + f * (b - a))
        return out

    def _bilinear(self, values, x, y):
        c0, r0 = min(int(x), self.ni - 2), min(int(y), self.nj - 2)
        fx, fy = x - c0, y - r0
        p = lambda r, c: values[r * self.ni + c]  # noqa: E731
        top = p(r0, c0) + fx * (p(r0, c0 + 1) - p(r0, c0))
        bottom = p(r0 + 1, c0) + fx * (p(r0 + 1, c0 + 1) - p(r0 + 1, c0))
        return top + fy * (bottom - top)


class Polar:
    """A polar table: a header of wind speeds after a label, a row per angle (knots, degrees)."""

    def __init__(self, path):
        rows = [line.strip().replace(",", ";").split(";") for line in open(path) if line.strip()
                and not line.startswith(("#", "!"))]
        self.winds = [float(v) for v in rows[0][1:]]
        self.angles = [float(r[0]) for r in rows[1:]]
        self.table = [[float(v) if v else 0.0 for v in r[1:]] for r in rows[1:]]

    @staticmethod
    def along(xs, ys, x):
        if x <= xs[0]:
            return ys[0]
        for i in range(1, len(xs)):
            if x <= xs[i]:
                return ys[i - 1] + (x - xs[i - 1]) / (xs[i] - xs[i - 1]) * (ys[i] - ys[i - 1])
        return ys[-1]

    def speed(self, twa, tws):
        twa = abs((twa + 180) % 360 - 180)
        column = [self.along(self.winds, row, tws) if tws >= self.winds[0] else row[0] * tws / self.winds[0]
                  for row in self.table]
        if twa < self.angles[0]:
            return column[0] * twa / self.angles[0]
        return self.along(self.angles, column, twa)


def leg(a, b):
    """Distance (m) and initial bearing (°) on the sphere."""
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dl = math.radians((b[1] - a[1] + 540) % 360 - 180)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return 2 * R * math.asin(min(1, math.sqrt(h))), math.degrees(math.atan2(y, x)) % 360


def moved(p, bearing, metres):
    b = math.radians(bearing)
    lat = p[0] + math.degrees(metres * math.cos(b) / R)
    lon = p[1] + math.degrees(metres * math.sin(b) / (R * math.cos(math.radians((p[0] + lat) / 2))))
    return lat, lon


def sail(wind, polar, a, b, t, performance=1.0, step=60.0):
    """The leg from a to b sailed from time t: (arrival time, [(twa, tws kn, speed kn)] each minute); None when the
    forecast ends or the boat makes no way."""
    seen = []
    here = a
    while True:
        remaining, bearing = leg(here, b)
        if remaining < 1:
            return t, seen
        w = wind.at(here[0], here[1], t)
        if w is None:
            return None
        tws = math.hypot(*w) / KNOT
        twd = math.degrees(math.atan2(-w[0], -w[1])) % 360
        twa = (twd - bearing + 540) % 360 - 180
        speed = polar.speed(twa, tws) * performance
        seen.append((twa, tws, speed))
        if speed < 0.05:
            return None
        metres = speed * KNOT
        seconds = min(step, remaining / metres)
        here = b if seconds * metres >= remaining else moved(here, bearing, metres * seconds)
        t += seconds


def brute_force(wind, polar, start, goal, t0, lattice, water, performance=1.0):
    """The fastest time over a lattice of the area's water: nodes `lattice` degrees apart (longitude scaled by the
    cosine of the latitude), moves to the 32 neighbours within 3 nodes whose straight line stays in the water
    (`water(a, b)`), each sailed at the polar's speed as the wind is when it is begun (Dijkstra on arrival time).
    The start and the goal are nodes of their own, joined to the lattice points within two steps."""
    dlat = lattice
    dlon = lattice / math.cos(math.radians(start[0]))
    moves = [(dy, dx) for dy in range(-3, 4) for dx in range(-3, 4)
             if (dy, dx) != (0, 0) and math.gcd(abs(dy), abs(dx)) == 1]

    def point(node):
        if node == "start":
            return start
        if node == "goal":
            return goal
        return start[0] + node[0] * dlat, start[1] + node[1] * dlon

    best = {"start": t0}
    queue = [(t0, "start")]
    goal_cell = (round((goal[0] - start[0]) / dlat), round((goal[1] - start[1]) / dlon))
    while queue:
        t, node = heapq.heappop(queue)
        if node == "goal":
            return t
        if t > best.get(node, float("inf")):
            continue
        here = point(node)
        cell = (0, 0) if node == "start" else node
        nexts = [(cell[0] + dy, cell[1] + dx) for dy, dx in moves]
        if node == "start":
            nexts += [(dy, dx) for dy in range(-2, 3) for dx in range(-2, 3)]
        if max(abs(cell[0] - goal_cell[0]), abs(cell[1] - goal_cell[1])) <= 2:
            nexts.append("goal")
        for other in nexts:
            there = point(other)
            if not water(here, there):
                continue
            done = sail(wind, polar, here, there, t, performance, step=120)
            if done is None:
                continue
            arrival = done[0]
            if arrival < best.get(other, float("inf")):
                best[other] = arrival
                heapq.heappush(queue, (arrival, other))
    return None
