"""The browser the checks and the benchmarks drive: Debian's chromium, headless, through Debian's chromium-driver and
Python selenium (the interop virtual environment). One set-up for all of them.

    from browser import chromium
    driver = chromium(390, 844)            # a phone's viewport
    driver = chromium(1024, 900, scrollbars=False, srgb=True)   # screenshots compared by colour
    said, shown = page_texts(url, ["calibration-auto", "calibration-bias"], lambda text: "applied" in text)
"""
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def chromium(width=1024, height=900, scrollbars=True, srgb=False):
    """A new headless chromium with a `width` × `height` window; `scrollbars=False` hides them (screenshots), `srgb`
    pins the colour profile (pixels compared against known colours)."""
    options = Options()
    arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}"]
    if not scrollbars:
        arguments.append("--hide-scrollbars")
    if srgb:
        arguments.append("--force-color-profile=srgb")
    for argument in arguments:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def page_texts(url, ids, ready, seconds=15, width=1024, height=1400):
    """The text of each element named in `ids` on the page at `url` in chromium, read once `ready` holds of the
    first one's (or after `seconds`: the caller's check then says what it found)."""
    driver = chromium(width, height)
    try:
        driver.get(url)

        def text(element):
            return driver.execute_script(f"return document.getElementById('{element}').textContent") or ""

        end = time.monotonic() + seconds
        while not ready(text(ids[0])) and time.monotonic() < end:
            time.sleep(0.1)
        return [text(element) for element in ids]
    finally:
        driver.quit()
