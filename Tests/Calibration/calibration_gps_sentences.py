"""The calibration check's plotter-GPS part (calibration_check.py): a log with no RMC.

Many boats' logs have their fixes in GGA with VTG's course and speed and ZDA's date (a plotter's or a standalone
GPS's sentences), and their compass in HDM (no variation, no deviation). Two of Irene's days are rewritten so by
PyPI's pynmea2 (each RMC into GGA, VTG and ZDA, GLL dropped): the learner must read the same seconds of sailing from
them and learn the same values (the same tacks and gybes, the offset within 0.05°, the log's factor within 0.1 %, the
compass card within 0.1°), and the calibrated replay (the engine) must give the original's true wind angle (within
0.2° at the median second: the replay spreads a log's sentences evenly between its fixes, and the rewritten log has
more of them, so a second's last MWV T is now and then its neighbour). Rewritten again with each HDG as HDM of its
heading, the card must be the original's and the variation HDM no longer says, within 0.5° at every 45°. Before
2026-11-30 the learner read "0 s of sailing" from such a log, where the replay read it whole.

A racing boat's receiver sends its fix 5 or 10 times a second: the same days with each RMC sent five times, at .0,
.2, .4, .6 and .8 s, must learn exactly what the original does (before, each fix was a sample, and so a second's
wind two samples, the learner counting each as a second)."""

import math
import os
import statistics
import sys

import pynmea2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Benchmarks"))

from calibration_bound import apart, computed  # noqa: E402

DAYS = ("irene-2014-06-20", "irene-2014-06-28")


def rewrite(path, out, change):
    """`path` written to `out` line by line through pynmea2: each sentence it parses as the sentences `change(message,
    text)` returns (each line CRLF), a line it cannot parse as it was."""
    with open(path, errors="replace") as source, open(out, "w") as sink:
        for line in source:
            text = line.strip()
            try:
                message = pynmea2.parse(text)
            except pynmea2.ParseError:
                sink.write(line)
                continue
            sink.writelines(sentence + "\r\n" for sentence in change(message, text))
    return out


def five_hertz(path, work):
    """The log with each RMC sent five times in its second (pynmea2 writes them)."""
    def change(m, text):
        if m.sentence_type != "RMC" or not m.data[0]:
            return [text]
        return [str(pynmea2.RMC(m.talker, "RMC", (f"{m.data[0]}.{tenth}", *m.data[1:]))) for tenth in range(0, 10, 2)]
    return rewrite(path, os.path.join(work, "five-hertz-" + os.path.basename(path)), change)


def rewritten(path, work, compass):
    """The log with its RMC as GGA, VTG and ZDA, and with `compass` its HDG as HDM (pynmea2 writes them); the
    variation HDG said."""
    variations = []

    def change(m, text):
        kind, talker = m.sentence_type, m.talker
        if kind == "RMC":
            time, status, lat, ns, lon, ew, sog, cog, date = m.data[:9]
            quality, mode = ("1", "A") if status == "A" else ("0", "N")
            sentences = [pynmea2.GGA(talker, "GGA", (time, lat, ns, lon, ew, quality, "08", "1.0", "", "M", "", "M",
                                                     "", "")),
                         pynmea2.VTG(talker, "VTG", (cog, "T", "", "M", sog, "N", "", "K", mode))]
            if len(date) == 6:
                sentences.append(pynmea2.ZDA(talker, "ZDA", (time, date[0:2], date[2:4], "20" + date[4:6], "00", "00")))
            return [str(sentence) for sentence in sentences]
        if kind == "HDG" and compass:
            if m.variation not in (None, ""):
                variations.append(float(m.variation) * (1 if m.var_dir == "E" else -1))
            return [str(pynmea2.HDM(talker, "HDM", (m.data[0], "M")))] if m.heading not in (None, "") else []
        return [] if kind == "GLL" else [text]

    out = rewrite(path, os.path.join(work, ("compass-" if compass else "plotter-") + os.path.basename(path)), change)
    return out, (statistics.median(variations) if variations else 0.0)


def curve(report):
    terms = report.get("deviation", {}).get("coefficients") or [0] * 5
    return lambda h: sum(t * f for t, f in zip(terms, (1, math.sin(math.radians(h)), math.cos(math.radians(h)),
                                                        math.sin(math.radians(2 * h)), math.cos(math.radians(2 * h)))))


def replayed(binary, logs, calibration):
    """{second: the computed true wind angle} of the calibrated replays of `logs`."""
    out = {}
    for log in logs:
        out.update({second: twa for second, (twa, _) in computed(binary, log, calibration).items() if twa is not None})
    return out


def median_apart(a, b):
    seconds = sorted(set(a) & set(b))
    return (statistics.median(apart(a[t], b[t]) for t in seconds) if seconds else 180), len(seconds)


def learnt(learn, logs, path):
    _, report, result = learn(logs, path)
    return report, result, (report.get("samples", 0), report.get("tacks", {}).get("count"),
                            report.get("gybes", {}).get("count"))


def gps_sentences(binary, check, fixtures, learn, work):
    days = [os.path.join(fixtures, day + ".txt") for day in DAYS]
    plotter = [rewritten(day, work, False)[0] for day in days]
    pairs = [rewritten(day, work, True) for day in days]
    compass, variation = [p[0] for p in pairs], statistics.median(p[1] for p in pairs)
    files = [os.path.join(work, name + ".toml") for name in ("rmc", "plotter", "compass")]
    (original, _, counts), (report, result, plotter_counts) = learnt(learn, days, files[0]), learnt(learn, plotter,
                                                                                                     files[1])
    offsets = [r.get("awa_offset", {}).get("value", math.nan) for r in (original, report)]
    factors = [r.get("speed_factor", {}).get("value", math.nan) for r in (original, report)]
    card = max(abs(curve(report)(h) - curve(original)(h)) for h in range(0, 360, 45))
    check(counts[0] > 0 and plotter_counts == counts and abs(offsets[0] - offsets[1]) <= 0.05
          and abs(factors[1] / factors[0] - 1) <= 0.001 and card <= 0.1,
          f"two days rewritten as a plotter's GPS sends them (GGA, VTG, ZDA; pynmea2): {plotter_counts[0]} s of sailing "
          f"for {counts[0]}, tacks and gybes {plotter_counts[1:]} for {counts[1:]}, offset {offsets[1]:+.2f}° for "
          f"{offsets[0]:+.2f}°, log's factor {factors[1]:.4f} for {factors[0]:.4f}, the card within {card:.2f}°",
          result.stderr[-300:])
    original_angles = replayed(binary, days, files[0])
    median, seconds = median_apart(original_angles, replayed(binary, plotter, files[1]))
    check(seconds >= 0.98 * len(original_angles) > 1000 and median <= 0.2,
          f"the calibrated replay of the rewritten days gives the original's true wind angle: median {median:.2f}° "
          f"apart over {seconds} seconds (of {len(original_angles)})")
    report, result, compass_counts = learnt(learn, compass, files[2])
    misses = {h: curve(report)(h) - curve(original)(h) - variation for h in range(0, 360, 45)}
    check(compass_counts == counts and report.get("deviation", {}).get("status") == original.get("deviation", {}).get(
        "status") and max(abs(v) for v in misses.values()) <= 0.5,
          f"and with the compass's HDG as HDM: {compass_counts[0]} s of sailing, the card the original's and the "
          f"{variation:+.1f}° of variation HDM does not say, within {max(abs(v) for v in misses.values()):.2f}° at "
          f"every 45° (0.5° allowed)", {h: round(v, 2) for h, v in misses.items()})
    fast = [five_hertz(day, work) for day in days]
    report, result, fast_counts = learnt(learn, fast, os.path.join(work, "five-hertz.toml"))
    same = [k for k in ("awa_offset", "speed_factor", "upwash_upwind", "deviation") if report.get(k) == original.get(k)]
    check(fast_counts == counts and len(same) == 4,
          f"the same days with each fix sent five times a second: {fast_counts[0]} s of sailing for {counts[0]}, "
          f"tacks and gybes {fast_counts[1:]}; the same {', '.join(same)}", result.stderr[-300:])
