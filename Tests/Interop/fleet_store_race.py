"""The race office's standings read back (fleet_store_check.py): the served standings against the rules read again
independently (`race_boats.reference`, GeographicLib), class by class."""
import json
import time

import race_boats


def hms(seconds):
    total = round(seconds)
    return f"{total // 3600}:{total // 60 % 60:02d}:{total % 60:02d}"


def standings(get, base=None):
    """The race's standings once the web side has read all of it from the store (a few boats a second); `get(path,
    base)` answers a GET's body."""
    data = {}
    for _ in range(60):
        data = json.loads(get("/telltale/v1/fleet/races/0", base))
        if data.get("complete"):
            break
        time.sleep(0.5)
    return data, {b["id"]: b for b in data.get("boats", [])}


def compare_race(get, gun, base=None):
    """The served standings against race_boats.reference at each boat's last position: (data, served, reference,
    what differs, what is placed otherwise, how many finished)."""
    data, served = standings(get, base)
    wrong = {}
    reference = {}
    for n, (boat, group, *_rest) in enumerate(race_boats.BOATS):
        b = served.get(boat)
        if not b or not b.get("last"):
            wrong[boat] = "not in the standings"
            continue
        ref = race_boats.reference(n, gun, b["last"][0])
        reference[boat] = ref
        problems = []
        if b["status"] != ref["status"] or b["class"] != group:
            problems.append(("status", b["status"], ref["status"]))
        for key, tolerance in (("started", 0.5), ("finished", 0.5), ("elapsed", 0.5)):
            if (b[key] is None) != (ref[key] is None) or (b[key] is not None and abs(b[key] - ref[key]) > tolerance):
                problems.append((key, b[key], ref[key]))
        if abs(b["sailed"] - ref["sailed"]) > 0.001 * ref["sailed"] + 1:
            problems.append(("sailed", b["sailed"], ref["sailed"]))
        if (b["toGo"] is None) != (ref["toGo"] is None) or (b["toGo"] is not None and
                                                            abs(b["toGo"] - ref["toGo"]) > 2):
            problems.append(("toGo", b["toGo"], ref["toGo"]))
        if (b["corrected"] is None) != (ref["corrected"] is None) or (
                b["corrected"] is not None and abs(b["corrected"] - ref["corrected"]) > 0.5 + 0.002 * ref["corrected"]):
            problems.append(("corrected", b["corrected"], ref["corrected"]))
        if len(b["rounded"]) != ref["rounded"] or b["stopped"] != (race_boats.BOATS[n][5] == "silent"):
            problems.append(("rounded/stopped", len(b["rounded"]), b["stopped"]))
        if problems:
            wrong[boat] = problems
    # Places in each class from the reference's own values.
    order = {"finished": 0, "racing": 1, "did not finish": 2, "not started": 3}
    places = {}
    for group in ("IRC", "Sonar", "Dinghy"):
        boats = [b[0] for b in race_boats.BOATS if b[1] == group and b[0] in reference]
        by_elapsed = sorted(boats, key=lambda x: (order[reference[x]["status"]], reference[x]["elapsed"]
                                                  if reference[x]["status"] == "finished" else reference[x]["toGo"]))
        by_corrected = sorted(boats, key=lambda x: (order[reference[x]["status"]], reference[x]["corrected"]
                                                    or float("inf")))
        for i, boat in enumerate(by_elapsed):
            places.setdefault(boat, {})["placeElapsed"] = i + 1
        for i, boat in enumerate(by_corrected):
            places[boat]["placeCorrected"] = i + 1
    misplaced = {b: (served[b]["placeElapsed"], served[b]["placeCorrected"], p) for b, p in places.items()
                 if (served[b]["placeElapsed"], served[b]["placeCorrected"]) != (p["placeElapsed"],
                                                                                 p["placeCorrected"])}
    finished = sum(1 for r in reference.values() if r["status"] == "finished")
    return data, served, reference, wrong, misplaced, finished
