"""Chart figures (a benchmark, not a test: it prints figures and asserts nothing).

    .build-interop/venv/bin/python Benchmarks/chart_bench.py X86_BINARY [ARM64_BINARY SYSROOT]

- memory of the track and the AIS table: peak resident memory of `telltale replay --fast` over 24 hours of fixes (one
  a second) from a boat that does not move and hears no AIS, and over 24 hours of fixes from a boat moving 3 m/s (so
  the track fills its 8,192 points and is thinned again and again) with 200 AIS stations (class A, a report each a
  minute for the last hour): the difference is what the track and the table cost. The x86 static build, and the
  arm64 build under qemu-aarch64 when given (qemu's own memory included in both of its figures, not in the difference);
- the chart page as a phone fetches it: the panel's files and Leaflet's, as sent and gzipped;
- first paint of the chart on a phone-sized viewport (390 x 844) with both cores kept busy by two spinning processes:
  from asking for the page until the boat is on the chart over its tiles, five loads, headless chromium.
"""
import gzip
import math
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
from support import Gateway, chart_settings, free_port, make_mbtiles, nmea_position, sentence  # noqa: E402

binary = sys.argv[1]
arm = sys.argv[2:4] if len(sys.argv) >= 4 else None
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
work = tempfile.mkdtemp()




def armour(bits):
    bits += "0" * (-len(bits) % 6)
    return "".join(chr(v + 48 if v < 40 else v + 56) for v in (int(bits[i:i + 6], 2) for i in range(0, len(bits), 6)))


def class_a(mmsi, lat, lon, sog, cog, second):
    fields = [(1, 6), (0, 2), (mmsi, 30), (0, 4), (0, 8), (round(sog * 10), 10), (1, 1), (round(lon * 600000), 28),
              (round(lat * 600000), 27), (round(cog * 10), 12), (round(cog), 9), (second, 6), (0, 2), (0, 3), (0, 1),
              (0, 19)]
    bits = "".join(format(value & ((1 << width) - 1), f"0{width}b") for value, width in fields)
    return sentence(f"AIVDM,1,1,,A,{armour(bits)},0")


def log(path, hours, stations):
    """`hours` of RMC a second along a slow spiral, and `stations` ships reporting each minute in the last hour."""
    with open(path, "wb") as f:
        seconds = int(hours * 3600)
        for t in range(seconds):
            angle = t / 600.0
            radius = 200 + t * 0.5
            lat = 50.0 + radius * math.cos(angle) / 111_320
            lon = -1.0 + radius * math.sin(angle) / (111_320 * math.cos(math.radians(50)))
            clock = f"{(t // 3600) % 24:02d}{(t // 60) % 60:02d}{t % 60:02d}"
            f.write(sentence(f"GPRMC,{clock}.00,A,{nmea_position(lat, 'NS')},{nmea_position(lon, 'EW')},5.8,90.0,251126,,,A"))
            if stations and t >= seconds - 3600:
                for k in range(t % 60, stations, 60):
                    f.write(class_a(235_000_000 + k, lat + (k % 20 - 10) * 0.004, lon + (k // 20 - 5) * 0.006, 8.0,
                                    (k * 37) % 360, t % 60))


def hwm(command):
    """Peak resident memory of a command run to its end, in MB (the kernel's own count, from wait4)."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    return usage.ru_maxrss / 1024


def still(path, hours):
    """`hours` of RMC a second from a boat that does not move: the same number of fixes, no track to keep."""
    with open(path, "wb") as f:
        for t in range(int(hours * 3600)):
            clock = f"{(t // 3600) % 24:02d}{(t // 60) % 60:02d}{t % 60:02d}"
            f.write(sentence(f"GPRMC,{clock}.00,A,5000.0000,N,00100.0000,W,0.0,90.0,251126,,,A"))


small, large = os.path.join(work, "still.nmea"), os.path.join(work, "day.nmea")
still(small, 24)
log(large, 24, 200)
print(f"logs: {os.path.getsize(small) / 1e6:.1f} MB (24 h at anchor, no AIS), {os.path.getsize(large) / 1e6:.1f} MB "
      "(24 h under way, 200 stations)")
builds = [("x86 static build", [binary])]
if arm:
    sysroot = arm[1]
    builds.append(("arm64 build under qemu-aarch64", [
        "qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "-E",
        f"LD_LIBRARY_PATH={sysroot}/usr/lib/aarch64-linux-gnu:{sysroot}/lib/aarch64-linux-gnu", arm[0]]))
for name, prefix in builds:
    a = hwm(prefix + ["replay", "--fast", small])
    b = hwm(prefix + ["replay", "--fast", large])
    print(f"{name}: peak resident {a:.2f} MB (24 h still, no AIS), {b:.2f} MB (24 h of track, 200 stations): "
          f"{(b - a) * 1024:+.0f} KB")

# ---- The chart page --------------------------------------------------------------------------------------------
charts = os.path.join(work, "charts")
os.mkdir(charts)
blank = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                      "1f15c4890000000d49444154789c6360f8cf000000020101a5f3a4450000000049454e44ae426082")


def tile_of(z):
    n = 2 ** z
    s = math.sin(math.radians(50))
    return int((-1.0 + 180) / 360 * n), int((0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * n)


make_mbtiles(os.path.join(charts, "bench.mbtiles"), [("name", "bench"), ("format", "png")],
             [(z, x, y, blank) for z in range(14, 17) for cx, cy in [tile_of(z)]
              for x in range(cx - 3, cx + 4) for y in range(cy - 4, cy + 5)])
web, udp = free_port(), free_port()
gateway = Gateway(binary, f"""status_line = false
state_file = ""
[[input]]
name = "log"
url = "file:{large}"
loop = true
speed = 1
""" + chart_settings(charts, web), work=work).start(wait=[web])
url = f"http://127.0.0.1:{web}"


def fetched(path):
    request = urllib.request.Request(url + path, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as r:
        body = r.read()
        sent = len(body)
        plain = gzip.decompress(body) if r.headers.get("Content-Encoding") == "gzip" else body
        return sent, len(gzip.compress(plain, 9))


total_sent = total_gzip = 0
PANEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "Panel")
modules = ["/" + f for f in sorted(os.listdir(PANEL)) if f.endswith(".js") and f != "settings.js"]
for path in ["/", "/panel.css"] + modules + ["/leaflet/leaflet.js", "/leaflet/leaflet.css", "/charts/"]:
    sent, packed = fetched(path)
    total_sent += sent
    total_gzip += packed
print(f"the chart page's files: {total_sent / 1024:.1f} KB as sent (Leaflet gzipped by Debian), "
      f"{total_gzip / 1024:.1f} KB all gzipped")

from browser import chromium  # noqa: E402


def spin():
    while True:
        pass


spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(2)]
for s in spinners:
    s.start()
times = []
try:
    for _ in range(5):
        driver = chromium(390, 844)
        start = time.monotonic()
        driver.get(url + "/")
        while time.monotonic() - start < 30:
            ready = driver.execute_script(
                "const c = window.telltaleChart; return !!(c && c.boat && c.boat.getElement() && "
                "c.boat.getLatLng().lat !== 0 && document.querySelectorAll('img.leaflet-tile-loaded').length > 0)")
            if ready:
                times.append(time.monotonic() - start)
                break
            time.sleep(0.02)
        driver.quit()
finally:
    for s in spinners:
        s.terminate()
    gateway.stop()
if times:
    print(f"first paint of the chart (boat over tiles), both cores busy: median {statistics.median(times) * 1000:.0f} ms,"
          f" max {max(times) * 1000:.0f} ms over {len(times)} loads")
