"""Weather routing (#52) through `telltale route plan`, against references that are not Telltale's: the coast of
GMT's own reading of GSHHG (gmt select and grdlandmask at full resolution), the GRIB as ecCodes reads it, the polar's
table read again, a brute-force search over a fine lattice of the water (routing_reference.py).

A forecast written with ecCodes over southern Brittany (routing_grib.py: a front moving east, a hole of light wind) and
two passages: out of Quiberon bay round the peninsula and its islands to the west, against the wind; and from south of
Belle-Île across the hole to the approaches of Lorient. For each: no leg touches land; every leg sailed again at the
polar's speed takes the time the router says (within 2 %); the route at least as fast as the brute-force search
(within 3 %); the JSON and the GPX (gpxpy) as documented. Then the departure window, and what must be refused.

    routing_check.py BINARY POLAR BASEMAP_FOLDER
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Support"))
from support import Checks  # noqa: E402
import routing_reference as ref  # noqa: E402

binary, polar_path, basemap = sys.argv[1:4]
check = Checks("routing-check")
work = tempfile.mkdtemp(prefix="telltale-route-")
grib = os.path.join(work, "brittany.grb2")
subprocess.run(["/usr/bin/python3", os.path.join(HERE, "routing_grib.py"), grib, "20260815", "0"], check=True)
wind = ref.Wind(grib, HERE)
polar = ref.Polar(polar_path)
T0 = 1786752000  # 2026-08-15T00:00Z


def plan(*words, expect=0):
    result = subprocess.run([binary, "route", "plan", "--grib", grib, "--polar", polar_path, "--basemap", basemap,
                             *words], capture_output=True, text=True, timeout=300)
    return result


def iso(t):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def unix(text):
    import calendar
    return calendar.timegm((int(text[:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]), int(text[14:16]),
                            int(text[17:19]))) + float("0" + text[19:-1]) if len(text) > 20 else calendar.timegm(
        (int(text[:4]), int(text[5:7]), int(text[8:10]), int(text[11:13]), int(text[14:16]), int(text[17:19])))


def on_land(points):
    """The points GMT's select finds on land (GSHHG full resolution, lakes and islands as they are)."""
    text = "".join(f"{lon:.7f} {lat:.7f}\n" for lat, lon in points)
    out = subprocess.run(["gmt", "select", "-Df", "-Ns/k"], input=text, capture_output=True, text=True, check=True,
                         cwd=work)
    return [line.split() for line in out.stdout.splitlines() if line.strip()]


def dense(waypoints, metres=20):
    points = []
    for a, b in zip(waypoints, waypoints[1:]):
        length, bearing = ref.leg(a, b)
        n = max(1, int(length / metres))
        points += [ref.moved(a, bearing, length * i / n) for i in range(n + 1)]
    return points


class Water:
    """GMT's grdlandmask of the area (50 m cells): a straight line is in the water when every 25 m of it is."""

    def __init__(self, south, west, north, east):
        self.south, self.west, self.north, self.east, self.step = south, west, north, east, 0.0005
        path = os.path.join(work, "land.grd")
        subprocess.run(["gmt", "grdlandmask", f"-R{west}/{east}/{south}/{north}", f"-I{self.step}", "-Df",
                        "-N0/1/0/1/0", f"-G{path}=bb"], check=True, capture_output=True, cwd=work)
        self.columns = int(round((east - west) / self.step)) + 1
        self.rows = int(round((north - south) / self.step)) + 1
        self.cells = open(path, "rb").read()[892:]

    def land(self, lat, lon):
        r = int(round((self.north - lat) / self.step))
        c = int(round((lon - self.west) / self.step))
        if not (0 <= r < self.rows and 0 <= c < self.columns):
            return True
        return self.cells[r * self.columns + c] != 0

    def __call__(self, a, b):
        length, bearing = ref.leg(a, b)
        n = max(1, int(length / 25))
        return not any(self.land(*ref.moved(a, bearing, length * i / n)) for i in range(n + 1))


def passage(name, start, goal, depart, lattice):
    result = plan("--from", f"{start[0]},{start[1]}", "--to", f"{goal[0]},{goal[1]}", "--depart", iso(depart),
                  "--json", "--gpx", os.path.join(work, f"{name}.gpx"))
    check(result.returncode == 0, f"{name}: routed", result.stderr[-400:])
    if result.returncode != 0:
        return None
    route = json.loads(result.stdout)
    points = [(w["lat"], w["lon"]) for w in route["waypoints"]]
    check(all(k in route for k in ("eta", "duration_s", "distance_nm", "waypoints", "isochrones", "summary"))
          and abs(points[0][0] - start[0]) < 1e-6 and abs(points[-1][1] - goal[1]) < 1e-6
          and unix(route["waypoints"][0]["time"]) == depart and route["waypoints"][-1]["time"] == route["eta"],
          f"{name}: the JSON as documented, from the start at the departure to the destination at the ETA "
          f"({len(points)} waypoints, {route['distance_nm']} NM in {route['duration_s'] / 3600:.2f} h)")
    land = on_land(dense(points))
    check(not land, f"{name}: no leg touches land (GMT's select, GSHHG full resolution, every 20 m of "
          f"{route['distance_nm']} NM)", land[:5])
    # Sailed again leg by leg at the polar's speed, the tacks' and gybes' time as the command's defaults say.
    t, side, sailable = depart, 0, True
    for a, b in zip(points, points[1:]):
        done = ref.sail(wind, polar, a, b, t)
        if done is None:
            sailable = False
            break
        seen = done[1]
        if side and seen and (seen[0][0] > 0) != (side > 0):
            done = ref.sail(wind, polar, a, b, t + (90 if abs(side) < 90 and abs(seen[0][0]) < 90 else 60))
        t, side = done[0], done[1][0][0] if done[1] else side
        sailable = sailable and all(speed > 0.3 for _, _, speed in done[1])
    check(sailable, f"{name}: every leg sailable at the wind of its time and place (the polar's speed over 0.3 kn)")
    ratio = (t - depart) / route["duration_s"] if sailable else 0
    check(abs(ratio - 1) < 0.02, f"{name}: sailed again independently leg by leg, {(t - depart) / 3600:.3f} h against "
          f"the router's {route['duration_s'] / 3600:.3f} h ({(ratio - 1) * 100:+.2f} %, within 2 %)")
    lats = [p[0] for p in points] + [start[0], goal[0]]
    lons = [p[1] for p in points] + [start[1], goal[1]]
    water = Water(min(lats) - 0.08, min(lons) - 0.12, max(lats) + 0.08, max(lons) + 0.12)
    brute = ref.brute_force(wind, polar, start, goal, depart, lattice, water)
    check(brute is not None and route["duration_s"] <= (brute - depart) * 1.03,
          f"{name}: at least as fast as a brute-force search over a {lattice}° lattice of the water (32 moves a "
          f"node): {route['duration_s'] / 3600:.3f} h against {((brute or depart) - depart) / 3600:.3f} h (within 3 %)")
    import gpxpy
    gpx = gpxpy.parse(open(os.path.join(work, f"{name}.gpx")).read())
    rte = [(p.latitude, p.longitude) for r in gpx.routes for p in r.points]
    check(len(rte) == len(points) and all(abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6
                                          for a, b in zip(rte, points)),
          f"{name}: the GPX route (read by gpxpy) is the JSON's waypoints")
    return route


quiberon = passage("round Quiberon", (47.50, -2.98), (47.58, -3.40), T0 + 2 * 3600, 0.01)
belle_ile = passage("Belle-Île to Lorient", (47.22, -3.25), (47.66, -3.45), T0 + 20 * 3600, 0.01)

# A region to avoid (GeoJSON, as the Resources API's regions are): a box over the first route's way south of Quiberon.
box = [(-3.10, 47.38), (-3.00, 47.38), (-3.00, 47.43), (-3.10, 47.43), (-3.10, 47.38)]
regions = os.path.join(work, "regions.json")
json.dump({"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "firing range"},
           "geometry": {"type": "Polygon", "coordinates": [box]}}]}, open(regions, "w"))
result = plan("--from", "47.50,-2.98", "--to", "47.58,-3.40", "--depart", iso(T0 + 2 * 3600), "--json",
              "--avoid", regions)
around = json.loads(result.stdout) if result.returncode == 0 else {}
inside = [p for p in dense([(w["lat"], w["lon"]) for w in around.get("waypoints", [])])
          if -3.10 < p[1] < -3.00 and 47.38 < p[0] < 47.43]
check(result.returncode == 0 and not inside and quiberon and around["duration_s"] > quiberon["duration_s"],
      f"a region to avoid across the way (GeoJSON): sailed round, no point of the route in it, "
      f"{around.get('duration_s', 0) / 3600:.2f} h against {quiberon['duration_s'] / 3600 if quiberon else 0:.2f} h",
      (result.stderr[-300:], inside[:3]))

# The departure window: the passage round Quiberon every 4 hours over 12; each row as the single plan says.
result = plan("--from", "47.50,-2.98", "--to", "47.58,-3.40", "--depart", iso(T0 + 2 * 3600), "--window", "12",
              "--every", "4", "--json")
rows = json.loads(result.stdout).get("departures", []) if result.returncode == 0 else []
single = plan("--from", "47.50,-2.98", "--to", "47.58,-3.40", "--depart", iso(T0 + 6 * 3600), "--json")
alone = json.loads(single.stdout) if single.returncode == 0 else {}
durations = [r.get("duration_s") for r in rows]
check(len(rows) == 4 and all(d for d in durations) and len(set(durations)) > 1
      and abs(rows[1]["duration_s"] - alone.get("duration_s", 0)) < 1.5 and rows[1]["eta"][:19] == alone["eta"][:19],
      "the departure window: 4 departures 4 h apart, each its own time as the front passes, the second the same as "
      f"its own plan ({', '.join(f'{d / 3600:.2f} h' for d in durations if d)})", result.stderr[-300:])
text = plan("--from", "47.50,-2.98", "--to", "47.58,-3.40", "--depart", iso(T0 + 2 * 3600), "--window", "12",
            "--every", "4").stdout
check("fastest: leave at" in text and text.count("\n") >= 6, "and as a table, the fastest departure said",
      text[-300:])

# What must be refused, said, and never hang or crash.
bad_polar = os.path.join(work, "bad-polar.csv")
open(bad_polar, "w").write("this is not a polar\n\x00\xff\n")
one_column = os.path.join(work, "one-column.csv")
open(one_column, "w").write("TWA\\TWS;12\n40;4.5\n60;5.8\n90;6.4\n120;6.2\n150;5.1\n180;4.2\n")
not_grib = os.path.join(work, "not.grb2")
open(not_grib, "wb").write(b"GRIB" + os.urandom(4000))
holes = os.path.join(work, "holes.grb2")
subprocess.run(["/usr/bin/python3", os.path.join(HERE, "routing_grib.py"), holes, "20260815", "0", "--holes"],
               check=True)
route = ["--from", "47.50,-2.98", "--to", "47.58,-3.40"]
cases = [
    ("a destination on land (Carnac)", ["--from", "47.50,-2.98", "--to", "47.60,-3.10"], 65, "destination is on land"),
    ("a start on land (Houat)", ["--from", "47.39,-2.96", "--to", "47.58,-3.40"], 65, "start is on land"),
    ("a departure after the forecast's end", route + ["--depart", iso(T0 + 60 * 3600)], 65, "no forecast covers"),
    ("a destination outside the forecast's area", ["--from", "47.50,-2.98", "--to", "46.50,-4.40"], 65,
     "no forecast covers"),
    ("no wind it may sail in (--max-wind 5)", route + ["--max-wind", "5"], 65, "no way on"),
    ("a polar that is not one", route + ["--polar", bad_polar], 1, "polar"),
    ("a GRIB that is not one", route + ["--grib", not_grib], 65, "GRIB"),
]
for what, words, status, said in cases:
    extra = [] if "--depart" in words else ["--depart", iso(T0 + 2 * 3600)]
    if "--polar" in words or "--grib" in words:
        args = [binary, "route", "plan", "--basemap", basemap] + words + extra
        args += [] if "--grib" in words else ["--grib", grib]
        args += [] if "--polar" in words else ["--polar", polar_path]
        result = subprocess.run(args, capture_output=True, text=True, timeout=300)
    else:
        result = plan(*words, *extra)
    check(result.returncode == status and said in result.stderr,
          f"{what}: refused ({result.returncode}), said: {result.stderr.strip()[-110:]}", result.stderr[-300:])
for what, words in [("a polar with one column (12 kn)", ["--polar", one_column, "--grib", grib]),
                    ("a GRIB with holes (a block missing for 6 hours)", ["--grib", holes, "--polar", polar_path])]:
    result = subprocess.run([binary, "route", "plan", "--basemap", basemap, *route, "--depart", iso(T0 + 2 * 3600),
                             "--json", *words], capture_output=True, text=True, timeout=300)
    ok = result.returncode == 0 and json.loads(result.stdout).get("duration_s", 0) > 0
    check(ok, f"{what}: routed ({result.stderr.strip()[-100:]})", result.stderr[-300:])
check.finish()
