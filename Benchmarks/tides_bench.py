"""Tide figures (Benchmarks/tides.sh):

- against NOAA's published predictions for 2026 (../shared/fixtures/tides): high and low water times (median and 95th
  percentile of the error, minutes), hourly heights (mean absolute error, cm, each station and the median), the
  current at Turn Point (slack and strongest flood and ebb: timing median and 95th percentile, minutes; speed, knots);
- a year of 6-minute predictions for Boston (87,601 heights and the year's events), x86 and arm64 under qemu-user;
- the gateway's memory with the tide on (Boston's station, Turn Point's streams) against off: RssAnon and VmRSS
  after 30 s of a 1 Hz fix.

    tides_bench.py TELLTALE HARMONICS.tcd [ARM_TELLTALE ARM_SYSROOT]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Tides"))
from support import Gateway, free_port, memory_kb, nmea_position, sentence, wait_for  # noqa: E402
from webclient import HTTP  # noqa: E402

binary, harmonics = sys.argv[1], sys.argv[2]
arm = sys.argv[3:5]
SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "fixtures", "tides")


def tide(*args, runner=(), seconds=600):
    result = subprocess.run([*runner, binary if not runner else arm[0], "tide", *args, "--json"], capture_output=True,
                            text=True, timeout=seconds)
    return json.loads(result.stdout) if result.returncode == 0 else None


def unix(text):
    import calendar
    parts = text.replace("T", " ").replace("Z", "").replace("-", " ").replace(":", " ").replace(".", " ").split()
    return calendar.timegm(tuple(int(p) for p in parts[:5]) + (int(parts[5]) if len(parts) > 5 else 0,))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def against_noaa():
    if not os.path.isdir(SHARED):
        print("against NOAA: ../shared/fixtures/tides is absent (skipped)")
        return
    minutes, maes = [], []
    for station, label in (("1612340", "Honolulu"), ("8443970", "Boston")):
        hilo = json.load(open(f"{SHARED}/noaa-{station}-hilo-2026-08-15_2026-08-21.json"))["predictions"]
        hourly = json.load(open(f"{SHARED}/noaa-{station}-hourly-2026-08-15_2026-08-21.json"))["predictions"]
        answer = tide(station, "--from", "2026-08-14T21:00Z", "--hours", "174")
        events = [(unix(e["time"]), e["type"], e["height"]) for e in answer["events"]]
        heights = {unix(h["time"]): h["height"] for h in answer["heights"]}
        mine = []
        for p in hilo:
            kind = "high" if p["type"] == "H" else "low"
            same = [e for e in events if e[1] == kind]
            mine.append(min(abs(e[0] - unix(p["t"])) for e in same) / 60)
        mae = statistics.mean(abs(heights[unix(p["t"])] - float(p["v"])) * 100 for p in hourly)
        minutes += mine
        maes.append(mae)
        print(f"{label}: {len(hilo)} high and low waters, median {statistics.median(mine):.2f} min, 95th percentile "
              f"{percentile(mine, 0.95):.2f} min; hourly heights mean absolute error {mae:.2f} cm")
    print(f"tide stations together: events median {statistics.median(minutes):.2f} min, 95th percentile "
          f"{percentile(minutes, 0.95):.2f} min; heights {statistics.median(maes):.2f} cm at the median station, "
          f"{max(maes):.2f} cm at the worst")
    golden = json.load(open(f"{SHARED}/signalk-currents-noaa-pug1717-golden.json"))["events"]
    answer = tide("PUG1717_35", "--from", "2026-07-18T21:00Z", "--hours", "78")
    events = [(unix(e["time"]), e["type"], e["speed"]) for e in answer["events"]]
    timing, speeds = [], []
    for g in golden:
        same = [e for e in events if e[1] == g["kind"]]
        nearest = min(same, key=lambda e: abs(e[0] - unix(g["utc"])))
        timing.append(abs(nearest[0] - unix(g["utc"])) / 60)
        speeds.append(abs(nearest[2] - g["velocityMajorKn"]))
    print(f"Turn Point (PUG1717 bin 35): {len(golden)} slacks, floods and ebbs, timing median "
          f"{statistics.median(timing):.2f} min, 95th percentile {percentile(timing, 0.95):.2f} min; speed error "
          f"median {statistics.median(speeds):.3f} kn, at most {max(speeds):.3f} kn")


def year():
    runs = [("x86", ())]
    if arm:
        runs.append(("arm64 under qemu-user", ("qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "-E",
                                               f"LD_LIBRARY_PATH={arm[1]}/usr/lib/aarch64-linux-gnu")))
    for label, runner in runs:
        best = None
        for _ in range(3):
            start = time.perf_counter()
            answer = tide("Boston, Boston Harbor", "--from", "2026-01-01T00:00Z", "--hours", "8760", runner=runner)
            took = time.perf_counter() - start
            best = took if best is None else min(best, took)
        print(f"a year of 6-minute predictions at Boston, {label}: {best:.2f} s (best of 3; {len(answer['heights'])} "
              f"heights and {len(answer['events'])} events, JSON written)")


def memory():
    work = tempfile.mkdtemp(prefix="telltale-tide-bench-")
    log = os.path.join(work, "boat.nmea")
    with open(log, "wb") as f:
        for i in range(120):
            t = time.gmtime(1786770000 + i)
            f.write(sentence(f"GPRMC,{time.strftime('%H%M%S', t)}.00,A,{nmea_position(42.355, 'NS')},"
                             f"{nmea_position(-71.05, 'EW')},0.0,0.0,{time.strftime('%d%m%y', t)},,,A"))
            f.write(sentence("SDDPT,5.0,0.0"))
    figures = {}
    for on in (False, True):
        web = free_port()
        config = (f'status_line = false\nstate_file = "{work}/state-{on}/state.toml"\n[[input]]\nname = "log"\n'
                  f'url = "file:{log}"\n[web]\nlisten = "127.0.0.1:{web}"\n[tides]\nenabled = {str(on).lower()}\n')
        gateway = Gateway(binary, config, work=work, name=f"tides-{on}").start(wait=[web])
        if on:
            wait_for(lambda: HTTP(web).json("/signalk/v1/api/vessels/self/environment/tide/heightNow")[0] == 200, 20)
        time.sleep(30)
        figures[on] = (memory_kb(gateway.process.pid, "RssAnon"), memory_kb(gateway.process.pid, "VmRSS"))
        gateway.stop()
    print(f"the gateway's memory after 30 s, tides off: RssAnon {figures[False][0]} kB, VmRSS {figures[False][1]} kB; "
          f"on (Boston's station found and kept): RssAnon {figures[True][0]} kB, VmRSS {figures[True][1]} kB: "
          f"{figures[True][0] - figures[False][0]:+d} kB anonymous, {figures[True][1] - figures[False][1]:+d} kB "
          "resident")


against_noaa()
year()
memory()
