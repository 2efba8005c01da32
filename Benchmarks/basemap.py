"""The offline base map's figures (#42; docs/benchmarks.md has them):

    Benchmarks/basemap.py TELLTALE [BASEMAP_DIR]

1. the files on the card, by resolution, and the gazetteer (BASEMAP_DIR, default .build/basemap: `make basemap`);
2. the bytes a phone fetches: the Solent's first view at zoom 12 (its bins), then zooming out to the world (the bins
   each zoom's view over the Solent needs, as the panel asks for them);
3. the gateway's memory: two gateways on the same configuration but for [chart] basemap (on, and "" for none), each
   asked the same: the zoom sequence ten times over and 50 place searches; RssAnon (its own memory), RssFile (the
   mapped files' pages, the kernel's to drop) and VmRSS before and after;
4. how long an answer takes at the gateway: a full-resolution bin and a gazetteer search, the median of 200.
"""
import math
import os
import statistics
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "Support"))
from support import ROOT, Gateway, free_port, memory_kb  # noqa: E402

binary = sys.argv[1]
folder = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, ".build", "basemap"))
print("files on the card:")
total = 0
for name in sorted(os.listdir(folder)):
    size = os.path.getsize(os.path.join(folder, name))
    total += size
    print(f"  {name}: {size / 1e6:.2f} MB")
print(f"  together: {total / 1e6:.1f} MB")

RESOLUTIONS = [("c", 0, 1200), ("l", 4, 600), ("i", 6, 300), ("h", 8, 120), ("f", 10, 60)]


def resolution(zoom):
    chosen = RESOLUTIONS[0]
    for r in RESOLUTIONS:
        if zoom >= r[1]:
            chosen = r
    return chosen


def view_bins(lat, lon, zoom, width=390, height=540):
    """The bins a phone's view needs (as basemap.js's binsOver, over the tiles of the view)."""
    letter, _, minutes = resolution(zoom)
    scale = 256 * 2 ** zoom
    x = (lon + 180) / 360 * scale
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * scale
    west = (x - width / 2) / scale * 360 - 180
    east = (x + width / 2) / scale * 360 - 180

    def latitude(py):
        n = math.pi - 2 * math.pi * py / scale
        return math.degrees(math.atan(math.sinh(n)))
    north, south = min(85.05, latitude(max(0, y - height / 2))), max(-85.05, latitude(min(scale, y + height / 2)))
    degrees, across = minutes / 60, 21600 // minutes
    bins = set()
    for row in range(max(0, int((90 - north) // degrees)), min(across // 2 - 1, int((90 - south) // degrees)) + 1):
        lon_edge = math.floor(west / degrees) * degrees
        while lon_edge < east:
            bins.add(row * across + (round(lon_edge / degrees) % across))
            lon_edge += degrees
    return letter, sorted(bins)


def fetch(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return response.read()


def ask(port, letter, bins):
    size = 0
    for i in range(0, len(bins), 64):
        try:
            size += len(fetch(port, f"/charts/.basemap/{letter}/" + ",".join(map(str, bins[i:i + 64]))))
        except OSError:
            pass
    return size


SOLENT = (50.75, -1.30)
ZOOMS = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
PLACES = ["Cowes", "Lymington", "Southampton", "Portsmouth", "Falmouth", "Brest", "La Rochelle", "Cherbourg",
          "Newport", "Weymouth"] * 5


def gateway(basemap):
    port = free_port()
    work = tempfile.mkdtemp(prefix="telltale-basemap-bench-")
    g = Gateway(binary, f"""status_line = false
state_file = ""
[chart]
charts = ""
basemap = "{basemap}"
[web]
listen = "127.0.0.1:{port}"
""", work=work).start(wait=[port])
    time.sleep(3)
    return g, port


def figures(pid):
    return {field: memory_kb(pid, field) for field in ("RssAnon", "RssFile", "VmRSS", "VmHWM")}


print("bytes a phone fetches (390 x 540 chart, over the Solent):")
on, port = gateway(folder)
wire = {}
for zoom in ZOOMS:
    letter, bins = view_bins(*SOLENT, zoom)
    wire[zoom] = (letter, len(bins), ask(port, letter, bins))
for zoom in ZOOMS:
    letter, count, size = wire[zoom]
    print(f"  zoom {zoom:2d}: resolution {letter}, {count} bins, {size:,} bytes")
times = {}
for name, path in [("a full-resolution bin (the Solent's)", "/charts/.basemap/f/14398"),
                   ("a place search ('Cow')", "/charts/.gazetteer/Cow")]:
    spans = []
    for _ in range(200):
        start = time.perf_counter()
        fetch(port, path)
        spans.append(time.perf_counter() - start)
    times[name] = statistics.median(spans) * 1000
on.stop()

results = {}
for label, basemap in [("without", ""), ("with", folder)]:
    g, port = gateway(basemap)
    pid = g.process.pid
    before = figures(pid)
    for _ in range(10):
        for zoom in ZOOMS:
            ask(port, *view_bins(*SOLENT, zoom))
    for place in PLACES:
        try:
            fetch(port, "/charts/.gazetteer/" + urllib.request.quote(place))
        except OSError:
            pass
    time.sleep(1)
    results[label] = (before, figures(pid))
    g.stop()
print("the gateway's memory, kB (x86-64 release build), before and after the same requests:")
for label, (before, after) in results.items():
    print(f"  {label} the base map: " + ", ".join(f"{k} {before[k]:,} -> {after[k]:,}" for k in before))
anon = results["with"][1]["RssAnon"] - results["without"][1]["RssAnon"]
print(f"  the base map's cost in the gateway's own memory (RssAnon, after): {anon:+,} kB")
print("answer times at the gateway (loopback, median of 200):")
for name, ms in times.items():
    print(f"  {name}: {ms:.2f} ms")
