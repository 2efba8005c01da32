"""The tide check's second source: Telltale against tide_reference.py (libtcd's reading of the same file, XTide's own
year tables, events by sampling) on stations drawn across the whole file, each kind of station in three years."""
import calendar
import random

from libtcd import TCD
from tide_reference import Reference

YEARS = (1995, 2026, 2071)
SPAN = 72 * 3600


def sample(db):
    """Stations by kind, drawn with a fixed seed from every record (names held by one record only)."""
    records = [db.record(n) for n in range(db.count)]
    counts = {}
    for rec in records:
        counts[rec["name"]] = counts.get(rec["name"], 0) + 1
    kinds = {}
    for rec in records:
        if counts[rec["name"]] != 1:
            continue
        units = rec["units"] if rec["type"] == 1 else records[rec["reference"]]["units"]
        hydraulic = units == "knots^2"
        current = units.startswith("knots")
        if rec["type"] == 1:
            kind = "hydraulic current" if hydraulic else "reference current" if current else "reference tide"
        else:
            simple = (rec["min_time_add"], rec["min_level_add"], rec["min_level_multiply"]) == \
                (rec["max_time_add"], rec["max_level_add"], rec["max_level_multiply"])
            kind = ("subordinate current" if current else "subordinate tide") + (" (simple)" if simple else "")
        kinds.setdefault(kind, []).append(rec)
    wanted = {"reference tide": 12, "reference current": 6, "hydraulic current": 3, "subordinate tide": 10,
              "subordinate tide (simple)": 3, "subordinate current": 8, "subordinate current (simple)": 2}
    draw = random.Random(51)
    return {kind: draw.sample(kinds.get(kind, []), min(count, len(kinds.get(kind, []))))
            for kind, count in wanted.items()}


def compare(check, tide, ref, rec, year, draw):
    """(worst event minutes, worst value difference, unmatched events) for one station and a span of `year`."""
    start = calendar.timegm((year, 1, 1, 0, 0, 0)) + draw.randrange(20, 340) * 86400
    stamp = lambda t: __import__("time").strftime("%Y-%m-%dT%H:%MZ", __import__("time").gmtime(t))  # noqa: E731
    status, answer, err = tide(rec["name"], "--from", stamp(start), "--hours", str(SPAN // 3600))
    if status != 0 or not answer:
        return None, err
    station = ref.station(rec["number"])
    station.prepare(start - 2 * 86400, start + SPAN + 2 * 86400)
    theirs = station.events(start - 3600, start + SPAN + 3600)
    current = answer["kind"] == "current"
    values = answer["currents" if current else "heights"]
    worst_value = max(abs(station.level(unix_of(p["time"])) - p["speed" if current else "height"]) for p in values)
    worst_minutes, unmatched = 0.0, 0
    mine = [(unix_of(e["time"]), e["type"], e["speed" if current else "height"]) for e in answer["events"]]
    for when, kind, value in mine:
        same = [e for e in theirs if e[1] == kind]
        match = min(same, key=lambda e: abs(e[0] - when)) if same else None
        if match is None or abs(match[0] - when) > 1800:
            unmatched += 1
            continue
        worst_minutes = max(worst_minutes, abs(match[0] - when) / 60)
        worst_value = max(worst_value, abs(match[2] - value))
    for when, kind, _ in theirs:
        if start + 3600 <= when < start + SPAN - 3600 and not any(k == kind and abs(w - when) <= 1800
                                                                   for w, k, _ in mine):
            unmatched += 1
    return (worst_minutes, worst_value, unmatched, len(mine)), ""


def unix_of(text):
    date, clock = text[:10], text[11:19]
    y, m, d = (int(x) for x in date.split("-"))
    hh, mm, ss = (int(x) for x in clock.split(":"))
    return calendar.timegm((y, m, d, hh, mm, ss)) + float("0" + text[19:-1] if len(text) > 20 else 0)


def run(check, tide, harmonics):
    db = TCD(harmonics)
    ref = Reference(db)
    draw = random.Random(2026)
    for kind, records in sample(db).items():
        if not records:
            print(f"tide-check: the file has no {kind} station with a name of its own (skipped)")
            continue
        results, failures = [], []
        for index, rec in enumerate(records):
            result, err = compare(check, tide, ref, rec, YEARS[index % len(YEARS)], draw)
            if result is None:
                failures.append(f"{rec['name']}: {err.strip()}")
            else:
                results.append((rec["name"], *result))
        limit_value = 0.03 if "current" in kind else 0.02
        limit_minutes = 4.0
        bad = [r for r in results if r[1] > limit_minutes or r[2] > limit_value or r[3] > 0]
        events = sum(r[4] for r in results)
        worst_minutes = max((r[1] for r in results), default=0)
        worst_value = max((r[2] for r in results), default=0)
        units = "kn" if "current" in kind else "m"
        check(not failures and not bad,
              f"{len(results)} {kind} stations ({events} events, years {', '.join(map(str, YEARS))}) agree with the "
              f"independent predictor: events within {worst_minutes:.2f} min, values within {worst_value:.4f} {units}, "
              "none found by one and not the other",
              "; ".join(failures + [f"{r[0]}: {r[1]:.2f} min, {r[2]:.4f} {units}, {r[3]} unmatched" for r in bad]))
