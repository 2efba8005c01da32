"""Weather routing's figures (Benchmarks/routing.sh): a 200 NM coastal passage from off Brest round Penmarc'h and
past Belle-Île to the approaches of La Rochelle, through 72 hours of GRIB2 at 0.25° (a low crossing the Bay of
Biscay: the wind backing and veering, 8 to 30 kn), written with ecCodes; `telltale route plan` timed on x86 and, when
`make pi` has built it, the arm64 build under qemu-user (an upper bound: the emulator's speed, not a Pi's); the
router's peak resident memory.

    routing_bench.py TELLTALE POLAR BASEMAP [ARM_TELLTALE ARM_SYSROOT]
"""
import json
import os
import subprocess
import sys
import tempfile
import time

binary, polar, basemap = sys.argv[1:4]
arm = sys.argv[4:6]
work = tempfile.mkdtemp(prefix="telltale-routing-bench-")
grib = os.path.join(work, "biscay.grb2")
# Written by the routing check's own writer (Tests/Routing/routing_grib.py), with a wind of its own.
WRITE = r'''
import math, sys
sys.path.insert(0, sys.argv[2])
import routing_grib


def wind(lat, lon, hours):
    # A low moving east-north-east across the bay, its wind turning round it, over a westerly 12 kn.
    clat, clon = 45.5 + 0.04 * hours, -9.0 + 0.12 * hours
    dy, dx = (lat - clat) * 60, (lon - clon) * 60 * math.cos(math.radians(lat))
    r = math.hypot(dx, dy) + 1e-6
    strength = 15 * 0.5144 * (r / 150) * math.exp(1 - r / 150)
    return 6 * 0.5144 - strength * dy / r, strength * dx / r


routing_grib.write(sys.argv[1], 20260815, 0, field=wind, south=45.0, west=-7.0, rows=19, columns=27, step=0.25,
                   hours=range(0, 73, 3))
'''
ROUTING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Routing")
subprocess.run(["/usr/bin/python3", "-c", WRITE, grib, ROUTING], check=True)
WORDS = ["route", "plan", "--from", "48.30,-4.85", "--to", "46.10,-1.45", "--depart", "2026-08-15T06:00Z",
         "--grib", grib, "--polar", polar, "--basemap", basemap, "--performance", "95", "--json"]


def timed(runner, label):
    """The best of three runs' wall time, and the peak resident memory of the router's own process (wait4)."""
    best, answer, peak = None, None, 0
    for _ in range(3):
        out = open(os.path.join(work, "out.json"), "w+")
        start = time.perf_counter()
        process = subprocess.Popen([*runner, *WORDS], stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        took = time.perf_counter() - start
        out.seek(0)
        if status != 0:
            print(f"{label}: failed: {process.stderr.read().decode(errors='replace').strip()[-300:]}")
            return
        peak = max(peak, usage.ru_maxrss)
        best = took if best is None else min(best, took)
        answer = json.load(out)
    print(f"{label}: {best:.2f} s (best of 3) for {answer['distance_nm']:.1f} NM in {answer['duration_s'] / 3600:.2f} h, "
          f"{len(answer['waypoints'])} waypoints, {answer['summary']['tacks']} tacks and "
          f"{answer['summary']['gybes']} gybes, {len(answer['isochrones'])} isochrones; peak resident "
          f"{peak / 1024:.1f} MB")


timed([binary], "x86, the GRIB imported first (ecCodes)")
# The grid imported once (the same bytes on every machine), for the routing alone on both.
subprocess.run([binary, "weather", "import", grib, "--into", work], check=True, capture_output=True)
WORDS[WORDS.index(grib)] = os.path.join(work, "biscay.grb2.ttwx")
timed([binary], "x86, the grid imported")
if arm:
    timed(["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "-E", f"LD_LIBRARY_PATH={arm[1]}/usr/lib/aarch64-linux-gnu",
           arm[0]], "arm64 under qemu-user (its own memory included)")
