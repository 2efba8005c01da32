"""The committee's view in chromium (fleet_store_check.py): the Fleet layout lists every boat, Replay draws the span
kept and puts each gateway's boat where the store has it, the race's class filter, its silent boat and its table."""
import time

import race_boats
from fleet_store_race import standings
from support import stop, wait_for


def committee_replay(check, get, names, race, sql, web, web_port, workers):
    """The Fleet layout and the committee's Replay in chromium, the race's class filter and table; then the web side and the workers stopped."""
    # The committee's replay in chromium, from the web side: the span kept, the slider, the boats where the store says.
    from browser import chromium  # noqa: E402
    driver = chromium(1024, 900)
    try:
        driver.get(f"http://127.0.0.1:{web_port}/")
        wait_for(lambda: driver.execute_script("return document.querySelectorAll('.fleet-table tbody tr').length") >= 302,
                 20, step=0.5)
        rows = driver.execute_script("return document.querySelectorAll('.fleet-table tbody tr').length")
        gpx_link = driver.execute_script(
            f"const a = document.querySelector('.fleet-table a[href$=\"/{names[0]}/track.gpx\"]'); return a && a.href")
        check(rows >= 302 and gpx_link, f"the Fleet layout from the web side lists {rows} boats, each with its track as GPX")
        # The committee's views: one class, the boat gone silent, the race in corrected and elapsed order.
        driver.execute_script("const s = document.querySelector('.fleet-class'); s.value = 'IRC'; "
                              "s.dispatchEvent(new Event('change'));")
        irc = [b[0] for b in race_boats.BOATS if b[1] == "IRC"]
        # The silent boat's last batch reached the store when the race's past was published: two minutes on, it is marked.
        row_text = "const r = document.querySelector('.fleet-table tr[data-boat=\"race-irc-5\"]'); return r && r.textContent"
        wait_for(lambda: "stopped reporting" in (driver.execute_script(row_text) or ""), 90, step=1)
        shown_rows = driver.execute_script(
            "return [...document.querySelectorAll('.fleet-table tbody tr')].map(r => [r.dataset.boat, r.textContent])")
        silent = [r for r in shown_rows if "stopped reporting" in r[1]]
        check(sorted(r[0] for r in shown_rows) == sorted(irc) and [r[0] for r in silent] == ["race-irc-5"],
              f"the Fleet layout filtered by class: IRC shows its {len(irc)} boats alone, with names and sail numbers, "
              "and the one silent for more than two minutes marked as stopped reporting", shown_rows[:12])
        driver.execute_script("document.querySelector('.race-open').click()")
        wait_for(lambda: driver.execute_script("return !!window.telltaleRace"), 20, step=0.2)
        _, now_served = standings(get)
        want_corrected = sorted(irc, key=lambda b: now_served[b]["placeCorrected"])
        want_elapsed = sorted(irc, key=lambda b: now_served[b]["placeElapsed"])
        corrected_rows = driver.execute_script("return window.telltaleRace.rows")
        driver.execute_script("const s = document.querySelector('.race-order'); s.value = 'elapsed'; "
                              "s.dispatchEvent(new Event('change'));")
        elapsed_rows = driver.execute_script("return window.telltaleRace.rows")
        marks = driver.execute_script("return document.querySelectorAll('.race-mark').length")
        check(corrected_rows == want_corrected and elapsed_rows == want_elapsed and want_corrected != want_elapsed
              and marks == 1,
              f"the race in chromium, IRC alone: by corrected time {corrected_rows}, by elapsed time {elapsed_rows} "
              "(as the standings place them), the course's mark on the chart",
              {"corrected": want_corrected, "elapsed": want_elapsed, "marks": marks})
        driver.execute_script("document.querySelector('.race-close').click(); const s = "
                              "document.querySelector('.fleet-class'); s.value = ''; s.dispatchEvent(new Event('change'));")
        driver.execute_script("document.querySelector('.replay-open').click()")
        wait_for(lambda: driver.execute_script("return !!(window.telltaleReplay && window.telltaleReplay.shown)"), 30,
                 step=0.2)
        replay = driver.execute_script("const r = window.telltaleReplay; return r && {first: r.firstPicture, "
                                       "boats: r.boats.length, day: r.day}") or {}
        check(replay.get("boats", 0) >= 300,
              f"Replay: every boat's track on the newest day kept ({replay.get('day')}: {replay.get('boats')} boats, the "
              f"first picture in {replay.get('first', 0):.0f} ms)")
        # The gateways' day (the demo voyage's), chosen in the list: the slider to a moment inside their span.
        first_real, last_real = (float(v) for v in sql(
            f"SELECT extract(epoch from min(time)), extract(epoch from max(time)) FROM fleet_positions "
            f"WHERE boat = '{names[0]}'")[0])
        voyage_day = time.strftime("%Y-%m-%d", time.gmtime(first_real))
        driver.execute_script("const s = document.querySelector('.replay-day'); s.value = arguments[0]; "
                              "s.dispatchEvent(new Event('change'));", voyage_day)
        wait_for(lambda: driver.execute_script("return !!(window.telltaleReplay && window.telltaleReplay.day === "
                                               "arguments[0])", voyage_day), 20, step=0.2)
        moment = round((first_real + last_real) / 2)
        driver.execute_script("const s = document.querySelector('.replay-slider'); s.value = arguments[0]; "
                              "s.dispatchEvent(new Event('input'));", moment)
        shown = {b["id"]: b for b in driver.execute_script("return window.telltaleReplay.shown")}
        agree = []
        for name in names:
            row = sql(f"SELECT extract(epoch from time), ST_Y(position::geometry), ST_X(position::geometry) FROM "
                      f"fleet_positions WHERE boat = '{name}' AND time <= to_timestamp({moment}) ORDER BY time DESC LIMIT 1")
            b = shown.get(name)
            agree.append(bool(row and b and abs(float(row[0][0]) - b["time"]) < 0.01 and
                              abs(float(row[0][1]) - b["latitude"]) < 1e-6 and abs(float(row[0][2]) - b["longitude"]) < 1e-6))
        label = driver.execute_script("return document.querySelector('.replay-time').textContent")
        check(all(agree), f"the slider at {label}: both gateways' boats drawn where the store has them at that moment",
              {n: shown.get(n) for n in names})
        driver.execute_script("document.querySelector('.replay-speed').value = '1200'; "
                              "document.querySelector('.replay-play').click()")
        time.sleep(2)
        played = driver.execute_script("return window.telltaleReplay.time")
        check(played > moment, f"played at x1200, the replay moved on ({played - moment:.0f} s of race in 2 s)")
    finally:
        driver.quit()
    race.stopping.set()

    for p in list(workers.values()) + [web]:
        stop(p)
