"""Instrument panel figures (a benchmark, not a test: it prints figures and asserts nothing).

    .build-interop/venv/bin/python Benchmarks/panel.py BINARY [SECONDS]

- the page's transfer size: every file the browser fetched for it, as sent, and what gzip would make of them;
- time to first value: from asking for the page until the apparent wind tile shows a number, with both cores kept
  busy by two spinning processes (a loaded machine), five times, headless chromium;
- the gateway's CPU over SECONDS (default 20) on the bench profile with no page open, then with five pages open
  (five tabs of one headless chromium, each its own WebSocket), from /proc/<pid>/stat.
"""
import gzip
import multiprocessing
import os
import statistics
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
from support import Gateway, bench_profile, free_port  # noqa: E402

from browser import chromium
from selenium.webdriver.common.by import By

binary = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


web, nmea = free_port(), free_port()
gateway = Gateway(binary, bench_profile(nmea, web)).start(wait=[web]).process
url = f"http://127.0.0.1:{web}/"


def cpu():
    fields = open(f"/proc/{gateway.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def browser():
    return chromium(390, 844)


def spin(stop):
    while not stop.is_set():
        pass


try:
    # Transfer size, as the browser saw it, and each file gzipped.
    raw = 0
    zipped = 0
    # The page, its style sheet and every module of the panel (the files the page loads).
    modules = sorted(f for f in os.listdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "Panel"))
                     if f.endswith(".js") and f != "settings.js")
    for path in ["", "panel.css"] + modules:
        body = urllib.request.urlopen(url + path).read()
        raw += len(body)
        zipped += len(gzip.compress(body, 9))
    driver = browser()
    driver.get(url)
    time.sleep(2)
    transferred = driver.execute_script(
        "return performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))"
        ".reduce((s, e) => s + (e.transferSize || 0), 0)")
    print(f"page transfer: {transferred / 1024:.1f} KB as served (headers included), "
          f"files {raw / 1024:.1f} KB, {zipped / 1024:.1f} KB gzipped")

    # Time to first value on a loaded machine.
    time.sleep(5)
    stop = multiprocessing.Event()
    hogs = [multiprocessing.Process(target=spin, args=(stop,), daemon=True) for _ in range(os.cpu_count() or 2)]
    for hog in hogs:
        hog.start()
    firsts = []
    for _ in range(5):
        driver.execute_script("window.location = 'about:blank'")
        start = time.monotonic()
        driver.get(url)
        while True:
            text = driver.find_element(By.CSS_SELECTOR, '.tile[data-id="aw"] .v[data-q="aws"]').text
            if text not in ("", "—"):
                break
            time.sleep(0.02)
        firsts.append(time.monotonic() - start)
    stop.set()
    for hog in hogs:
        hog.join()
    print(f"time to first value with {len(hogs)} cores busy: median {statistics.median(firsts) * 1000:.0f} ms, "
          f"max {max(firsts) * 1000:.0f} ms over {len(firsts)} loads")

    # The gateway's CPU with no page, then five.
    driver.get("about:blank")
    time.sleep(2)
    c0, t0 = cpu(), time.monotonic()
    time.sleep(seconds)
    idle = (cpu() - c0) / (time.monotonic() - t0)
    driver.get(url)
    for _ in range(4):
        driver.switch_to.new_window("tab")
        driver.get(url)
    time.sleep(3)
    c0, t0 = cpu(), time.monotonic()
    time.sleep(seconds)
    busy = (cpu() - c0) / (time.monotonic() - t0)
    print(f"gateway CPU on the bench profile: {idle * 100:.2f}% of a core with no page, {busy * 100:.2f}% with five "
          f"pages open ({(busy - idle) / 5 * 100:.3f}% a page)")
    driver.quit()
finally:
    gateway.terminate()
    gateway.wait()
    os.unlink(config.name)
