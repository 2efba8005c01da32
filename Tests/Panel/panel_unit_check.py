"""The panel's modules, unit tested in chromium (Panel/tests/tests.js): a gateway with only its web server on, serving
the working tree's Panel/, the test page opened, each test's verdict printed ok or FAIL, then
`panel-unit-check: N passed, M failed`.

    panel_unit_check.py BINARY
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from browser import chromium  # noqa: E402
from support import Checks, free_port, Gateway, wait_for  # noqa: E402

binary = sys.argv[1]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
checks = Checks("panel-unit-check")
work = tempfile.mkdtemp(prefix="telltale-panel-unit-")
web = free_port()
config = f'[web]\nlisten = "127.0.0.1:{web}"\npanel = "{os.path.join(root, "Sources", "Panel")}"\n'
gateway = Gateway(binary, config, work=work).start(wait=[web])
driver = chromium(800, 900)
try:
    driver.get(f"http://127.0.0.1:{web}/tests/")
    wait_for(lambda: driver.execute_script("return window.results || null"), 20)
    results = driver.execute_script("return window.results || null")
    checks(results is not None, "the test page ran every test", driver.find_element("id", "summary").text)
    for test in (results or {}).get("tests", []):
        checks(test["ok"], test["name"], test.get("error") or "")
finally:
    driver.quit()
    gateway.stop()
checks.finish()
