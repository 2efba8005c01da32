"""The settings page's line of the steps in the log's reading (calibration_board_check.py, part 4): what the learner
found on Irene's days, said by the page in chromium."""
import json
import os
import subprocess

from support import wait_for


def log_steps_line(driver, check, binary, log):
    """The steps in the log's reading as the section says them: the learner's own report of Irene's days (two steps,
    the older one's wind part not told: taken to have stepped with the log), drawn by the page (its fetch answered
    with that report, "Learn now" clicked)."""
    days = sorted(os.path.join(os.path.dirname(log), f) for f in os.listdir(os.path.dirname(log))
                  if f.startswith("irene-") and f.endswith(".txt"))
    learnt = subprocess.run([binary, "calibrate", "sailing", *days, "--json"], capture_output=True, text=True,
                            timeout=300)
    steps = json.loads(learnt.stdout).get("log_steps", []) if learnt.stdout.startswith("{") else []
    driver.execute_script("""const body = arguments[0];
        window.fetch = async () => new Response(JSON.stringify(body), {status: 200});
        document.getElementById('calibration-learn').click();""",
                          {"applied": {}, "report": json.loads(learnt.stdout) if steps else {}})
    line = "return document.getElementById('calibration-log-steps').textContent"
    wait_for(lambda: driver.execute_script(line), 15)
    text = driver.execute_script(line) or ""

    def change(ratio):
        return f"{abs(ratio - 1) * 100:.0f} % {'more' if ratio > 1 else 'less'}"

    said = []
    for step in steps:
        first = f"The log read {change(step['ratio'])}" + (
            f" and the wind speed {change(step['wind_ratio'])}" if step["wind_told"] else "") + \
            f" from {step['time'][:10]} (log factor"
        taken = f"it is taken to have, {change(step['wind_ratio'])}" + (
            " than the stretch after it, as the steps after it were told"
            if abs(step["wind_ratio"] - step["ratio"]) > 1e-9 else "") + ", so that the true wind angle is not turned"
        seen = f"and the wind speed {change(step['wind_ratio'])} from"
        said.append(first in text and (step["wind_told"] or (taken in text and seen not in text)))
    check(len(steps) == 2 and not steps[0]["wind_told"] and steps[1]["wind_told"] and all(said)
          and text.count("The log read") == 2,
          f"the section says the log's steps the learner found on Irene's {len(days)} logs, a wind part not told said "
          f"as taken, not as seen: \"{text}\"", learnt.stderr[-300:])
