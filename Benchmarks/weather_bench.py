"""Weather figures (a benchmark, not a test: it prints figures and asserts nothing).

    python3 Benchmarks/weather_bench.py X86_BINARY [ARM64_BINARY SYSROOT]

- a five-day GRIB2 forecast at 0.25 degrees over 1,000 NM square (36-52.75N, 20W-3.5E: 68 x 95 points, every 3 hours,
  41 times; 10 m wind, gust, pressure, precipitation, cloud), written with ecCodes (Debian's python3-eccodes);
- `telltale weather import` of it: wall time and peak resident memory (the kernel's count from wait4), on x86 and on
  arm64 under qemu-aarch64 when given (qemu's own time and memory included: an upper bound for a Pi);
- the gateway's memory with that forecast on board against none: `telltale run` with a GPS fix inside the area on
  UDP and the weather folder holding the grid (or not), after 30 s (the start-up pages are given back at 20 s):
  VmRSS, RssAnon, and what the mapped grid itself has resident (its Rss in /proc/PID/smaps), the forecast at the
  boat read once a second and the meteogram once a minute.
"""
import math
import os
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Support"))
from support import Gateway, free_port, memory_kb, nmea_position, sentence  # noqa: E402

binary = sys.argv[1]
arm = sys.argv[2:4] if len(sys.argv) >= 4 else None
work = tempfile.mkdtemp()
grib = os.path.join(work, "five-days.grib2")
subprocess.run(["/usr/bin/python3", "-c", f"""
import math, sys, eccodes, numpy as np
sys.path.insert(0, {os.path.join(HERE, "..", "Tests", "Interop")!r})
from weather_grib import set_grid
lats = [36 + 0.25 * i for i in range(68)]
lons = [-20 + 0.25 * i for i in range(95)]
la, lo = np.meshgrid(lats, lons, indexing="ij")
with open({grib!r}, "wb") as out:
    for hours in range(0, 121, 3):
        phase = hours / 24
        u = 8 * np.sin(la / 3 + phase) + 2 * np.cos(lo / 4)
        v = 6 * np.cos(lo / 5 - phase) + 1.5 * np.sin(la / 2)
        fields = [("10u", u), ("10v", v), ("i10fg", np.hypot(u, v) * 1.4),
                  ("msl", 101300 + 1500 * np.sin(la / 4 - phase) * np.cos(lo / 6)),
                  ("tcc", 0.5 + 0.5 * np.sin(la + lo + phase))]
        if hours:
            fields.append(("tp", np.maximum(0, np.sin(la / 2 + lo / 3 + phase)) * 0.002 * hours))
        for short, values in fields:
            h = eccodes.codes_grib_new_from_samples("regular_ll_sfc_grib2")
            if short == "tp":
                eccodes.codes_set(h, "productDefinitionTemplateNumber", 8)
            eccodes.codes_set(h, "shortName", short)
            eccodes.codes_set(h, "dataDate", 20261125)
            eccodes.codes_set(h, "dataTime", 0)
            set_grid(h, lats, lons, north_first=False, lon_0_360=True)
            if short == "tp":
                eccodes.codes_set(h, "stepRange", "0-%d" % hours)
            else:
                eccodes.codes_set(h, "step", hours)
            eccodes.codes_set(h, "bitsPerValue", 16)
            eccodes.codes_set_values(h, values.flatten())
            eccodes.codes_write(h, out)
            eccodes.codes_release(h)
"""], check=True)
print(f"GRIB: {os.path.getsize(grib) / 1e6:.2f} MB, 68 x 95 points at 0.25 deg, 41 times over 5 days, 6 fields "
      "(GRIB2, 16 bits a value)")

builds = [("x86", [binary])]
if arm:
    builds.append(("arm64 under qemu-aarch64", [
        "qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "-E",
        f"LD_LIBRARY_PATH={arm[1]}/usr/lib/aarch64-linux-gnu:{arm[1]}/lib/aarch64-linux-gnu", arm[0]]))


def measured(command):
    """Wall seconds and peak resident MB of a command run to its end."""
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    return time.monotonic() - start, usage.ru_maxrss / 1024, status


for name, prefix in builds:
    folder = os.path.join(work, name.split()[0])
    runs = [measured(prefix + ["weather", "import", grib, "--into", folder]) for _ in range(3)]
    grid = os.path.join(folder, "five-days.grib2.ttwx")
    wall = sorted(r[0] for r in runs)[1]
    peak = max(r[1] for r in runs)
    print(f"{name}: weather import {wall:.2f} s (median of 3), peak resident {peak:.1f} MB; grid "
          f"{os.path.getsize(grid) / 1e6:.2f} MB" if all(r[2] == 0 for r in runs) else f"{name}: import failed")

# ---- The gateway with the forecast on board -----------------------------------------------------------------------
grid_folder = os.path.join(work, "x86")


def gateway_memory(prefix, with_forecast):
    state = tempfile.mkdtemp()
    weather = os.path.join(state, "weather")
    os.makedirs(weather)
    if with_forecast:
        os.link(os.path.join(grid_folder, "five-days.grib2.ttwx"), os.path.join(weather, "five-days.grib2.ttwx"))
    udp = free_port(socket.SOCK_DGRAM)
    gateway = Gateway(prefix[-1], f"""status_line = false
state_file = "{state}/state.toml"
[[input]]
name = "gps"
url = "udp://127.0.0.1:{udp}"
[[output]]
url = "udp://127.0.0.1:{free_port(socket.SOCK_DGRAM)}"
""", runner=prefix[:-1]).start()
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for t in range(30):
        rmc = (f"GPRMC,1000{t:02d}.00,A,{nmea_position(45.3, 'NS')},{nmea_position(-8.2, 'EW')},6.0,45.0,251126,,,A")
        sender.sendto(sentence(rmc), ("127.0.0.1", udp))
        time.sleep(1)
    pid = gateway.process.pid
    rss, anon = memory_kb(pid, "VmRSS"), memory_kb(pid, "RssAnon")
    mapped = 0
    with open(f"/proc/{pid}/smaps") as f:
        inside = False
        for line in f:
            if "-" in line.split(" ")[0] and len(line.split()) >= 5:
                inside = line.rstrip().endswith(".ttwx")
            elif inside and line.startswith("Rss:"):
                mapped += int(line.split()[1])
    used = "1 forecast on board" in gateway.log()
    gateway.stop()
    return rss / 1024, anon / 1024, used, mapped


for name, prefix in builds:
    plain = gateway_memory(prefix, False)
    loaded = gateway_memory(prefix, True)
    print(f"{name}: telltale run, VmRSS {plain[0]:.2f} MB without a forecast, {loaded[0]:.2f} MB with the five-day "
          f"grid on board ({'taken' if loaded[2] else 'NOT taken'}); RssAnon {plain[1] * 1024:.0f} / "
          f"{loaded[1] * 1024:.0f} KB; the mapped grid resident: {loaded[3]} KB of "
          f"{os.path.getsize(os.path.join(grid_folder, 'five-days.grib2.ttwx')) // 1024} KB")
