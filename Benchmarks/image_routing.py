"""The image bench's routing part (image_bench.py): the daemon's memory and loop while a route is planned on the Pi.

A GRIB sent from the laptop (the Channel, 48 hours), a passage of some 60 NM from south of the Isle of Wight to off
Beachy Head planned through /telltale/v1/routing: the router runs in its own process. Measured: the daemon's VmRSS and
RssAnon each second before, during and after the plan (and from 65 s after it: the program's pages given back), the router's own peak (its VmHWM, read while it runs), and the
loop's pace seen from outside: the largest gap between two computed true-wind sentences on TCP 10110 in the minute
with the plan against the minute before it (the engine sends MWV T five times a second).
"""
import json
import os
import subprocess
import sys
import time

from image_worker import STALL_MS, daemon, say_memory, stalls, watch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FROM, TO = (50.55, -1.20), (50.55, 0.30)


def largest_gap(output, start, end):
    """The largest gap (s) between two computed true-wind sentences that arrived between `start` and `end`."""
    times = [t for t, line in output.lines() if start <= t <= end and ",T," in line and "MWV" in line]
    return max((b - a for a, b in zip(times, times[1:])), default=float("inf")), len(times)


def routing_phase(pi, output, request, token, work):
    grib = os.path.join(work, "channel.grb")
    today = time.strftime("%Y%m%d", time.gmtime())
    subprocess.run(["/usr/bin/python3", "-c", f"import sys; sys.path.insert(0, {os.path.join(ROOT, 'Tests', 'Interop')!r}); "
                    f"import weather_grib as w; w.grib1_ncep({grib!r}, {today}, 0, range(0, 49, 3), south=50.0, west=-2.0)"],
                   check=True)
    data = open(grib, "rb").read()
    for offset in range(0, len(data), 16384):
        request(f"/telltale/v1/weather/grib?name=channel.grb&offset={offset}&total={len(data)}", "PUT",
                data[offset:offset + 16384], token=token)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        code, body = request("/telltale/v1/routing")
        answer = json.loads(body) if code == 200 else {}
        if answer.get("state") == "idle" and "missing" not in answer:
            break
        time.sleep(2)
    else:
        print(f"routing: the router is not ready on the image: {body[:200]}")
        return
    quiet_start, quiet_clock = time.monotonic(), pi.out("date +%s")
    before = []
    while time.monotonic() - quiet_start < 60:
        before.append(daemon(pi))
        time.sleep(1)
    quiet_gap, quiet_count = largest_gap(output, quiet_start, time.monotonic())
    asked, asked_clock = time.monotonic(), pi.out("date +%s")
    code, body = request("/telltale/v1/routing", "POST", json.dumps(
        {"from": {"latitude": FROM[0], "longitude": FROM[1]}, "to": {"latitude": TO[0], "longitude": TO[1]}}).encode(),
        token=token)
    during, router_peak, answer = watch(pi, request, "/telltale/v1/routing", "route plan", ("planned", "failed"),
                                        asked)
    planned = time.monotonic() - asked
    while time.monotonic() - asked < 60:
        during.append(daemon(pi))
        time.sleep(1)
    busy_gap, busy_count = largest_gap(output, asked, time.monotonic())
    end_clock = pi.out("date +%s")
    # The program's pages given back 60 s after the plan (RoutingService's releaseAgainAt): the daemon read again
    # from 65 s after the plan, for 20 s.
    while time.monotonic() - asked < planned + 65:
        time.sleep(1)
    after = []
    for _ in range(20):
        after.append(daemon(pi))
        time.sleep(1)
    plan = answer.get("plan") or {}
    print(f"routing on the image: POST {code}, {answer.get('state')} in {planned:.0f} s (emulated): "
          f"{plan.get('distance_nm', 0):.1f} NM, {len(plan.get('waypoints', []))} waypoints; "
          f"{answer.get('message', '')}")
    print(f"routing on the image: the router's own peak VmHWM {router_peak} kB")
    say_memory("routing on the image", (("the minute before", before), ("the minute with the plan", during),
                                         ("the 20 s from 65 s after the plan", after)))
    print(f"routing on the image: largest gap between computed MWV T on TCP: {quiet_gap * 1000:.0f} ms in the minute "
          f"before ({quiet_count} sentences), {busy_gap * 1000:.0f} ms in the minute with the plan ({busy_count})")
    print(f"routing on the image: the engine's own late ticks (over {STALL_MS} ms, from the journal): "
          f"{stalls(pi, quiet_clock, asked_clock)} in the minute before, {stalls(pi, asked_clock, end_clock)} in the "
          "minute with the plan")
    sys.stdout.flush()
