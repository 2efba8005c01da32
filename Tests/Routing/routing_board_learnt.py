"""The learnt polar on board (routing_board_check.py, part 1b): a table as the calibration's learner writes it
(`calibration/polar.csv` in the state folder: the cells the boat sailed steadily, the others empty) is taken over the
configured polar by the next plan, which is the plan `telltale route plan --learnt-polar` gives and slower by the
boat's own shortfall; a learnt table that does not parse is left out and said as the configured polar."""
import json
import os
import subprocess


def learnt_table(polar, share):
    """The configured table at `share` of its speeds from 30° and 6 kn (the learner's layout: empty below)."""
    lines = open(polar).read().split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(";")
        if len(cells) < 2 or float(cells[0]) < 30:
            continue
        out.append(";".join([cells[0], ""] + [f"{float(c) * share:.2f}" for c in cells[2:]]))
    return "\n".join(out) + "\n"


def learnt_polar(check, web, binary, polar, gribs, basemap, goal, first):
    """`web` holds the routing helpers (`routing`, `post`, `planned`, `unix`); `first` the plan on the configured
    polar from the same place."""
    folder = os.path.join(web.state, "calibration")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "polar.csv")
    with open(path, "w") as f:
        f.write(learnt_table(polar, 0.8))
    status, _ = web.post({"to": {"latitude": goal[0], "longitude": goal[1]}})
    done = web.planned()
    plan = done.get("plan") or {}
    asked = (done.get("job") or {}).get("from") or {}
    cli = subprocess.run([binary, "route", "plan", "--from", f"{asked.get('latitude')!r},{asked.get('longitude')!r}",
                          "--to", f"{goal[0]},{goal[1]}", "--depart", plan.get("departure", ""),
                          "--grib", os.path.join(gribs, "brittany.grb2"), "--polar", polar, "--learnt-polar", path,
                          "--basemap", basemap, "--json"], capture_output=True, text=True, timeout=300)
    alone = json.loads(cli.stdout) if cli.returncode == 0 else {}
    same = (plan.get("eta") and plan.get("eta") == alone.get("eta")
            and len(plan.get("waypoints", [])) == len(alone.get("waypoints", [])))
    slower = plan.get("duration_s", 0) / max(first.get("duration_s", 1), 1)
    check(status == 202 and done.get("polar") == "learnt" and same and slower > 1.12,
          f"the learnt polar (80 % of the configured from 6 kn) taken by the next plan: \"polar\": "
          f"\"{done.get('polar')}\", the ETA `route plan --learnt-polar` gives ({plan.get('eta', '')[:16]}), "
          f"{slower:.2f} times as long as on the configured polar",
          json.dumps(done)[:300] + cli.stderr[-200:])
    with open(path, "w") as f:
        f.write("TWA\\TWS;4;6\n40;;\n\x00garbage;;\n")
    status, _ = web.post({"to": {"latitude": goal[0], "longitude": goal[1]}})
    done = web.planned()
    check(done.get("state") == "planned" and done.get("polar") == "configured",
          f"a learnt table that does not parse: left out, the plan on the configured polar ({done.get('polar')})",
          json.dumps(done)[:300])
    os.remove(path)
