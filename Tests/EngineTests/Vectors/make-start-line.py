"""Makes the start-line test vectors with GeographicLib (the `geographiclib` package from PyPI), independently of
Telltale's own geodesy: the distance from a bow to the line (the geodesic between its ends) is found by searching
along the line for the nearest point (golden-section search on the geodesic distance), clamped to the ends.

Run from this folder: python3 make-start-line.py   (needs `pip install geographiclib`).
Each line: port lat lon, starboard lat lon, bow lat lon, the boat's course (degrees) at 3 m/s | signed distance m
(positive on the pre-start side, the right of port->starboard), the nearest point's distance along the line m, the
seconds to reach it at that course and speed (the speed made good towards it; -1 when not closing).
"""
import math

from geographiclib.geodesic import Geodesic

g = Geodesic.WGS84


def nearest(a, b, p):
    line = g.InverseLine(a[0], a[1], b[0], b[1])
    length = line.s13

    def dist(s):
        pos = line.Position(s)
        return g.Inverse(pos["lat2"], pos["lon2"], p[0], p[1])["s12"]

    lo, hi = 0.0, length
    phi = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        m1 = hi - phi * (hi - lo)
        m2 = lo + phi * (hi - lo)
        if dist(m1) < dist(m2):
            hi = m2
        else:
            lo = m1
    s = (lo + hi) / 2
    foot = line.Position(s)
    to_bow = g.Inverse(foot["lat2"], foot["lon2"], p[0], p[1])
    # The side: the bow's bearing from the nearest point against the line's direction there.
    side = math.sin(math.radians(to_bow["azi1"] - foot["azi2"])) if to_bow["s12"] > 1e-9 else 1
    towards = g.Inverse(p[0], p[1], foot["lat2"], foot["lon2"])["azi1"]
    return (1 if side >= 0 else -1) * to_bow["s12"], s, towards


def offset(point, azimuth, distance):
    r = g.Direct(point[0], point[1], azimuth, distance)
    return (r["lat2"], r["lon2"])


cases = []
for lat, lon, heading, length in [(50.78, -1.30, 90, 300), (0.1, 10.0, 80, 600), (60.2, 24.9, 135, 1500),
                                  (-33.8, 151.2, 20, 150), (78.0, 15.0, 300, 800), (40.0, 179.999, 95, 400)]:
    port = (lat, lon)
    starboard = offset(port, heading, length)
    for along, across in [(0.5, 50), (0.3, -20), (0.9, 400), (0.5, 0.5), (-0.2, 30), (1.3, 60), (1.1, -10)]:
        on_line = offset(port, heading, along * length)
        bow = offset(on_line, heading + 90, across)
        cases.append((port, starboard, bow))
with open("start-line.txt", "w") as f:
    f.write("# port lat lon | starboard lat lon | bow lat lon | course | distance along time (GeographicLib, WGS84; "
            "make-start-line.py)\n")
    for index, (port, starboard, bow) in enumerate(cases):
        distance, along, towards = nearest(port, starboard, bow)
        course = (towards + [0, 30, -60, 100, 45][index % 5]) % 360
        closing = 3 * math.cos(math.radians(course - towards))
        time = abs(distance) / closing if closing > 0.05 else -1
        f.write(" ".join(f"{v:.12f}" for v in (*port, *starboard, *bow)) + f" {course:.9f} {distance:.6f} {along:.6f}"
                f" {time:.6f}\n")
