"""An independent tide and current predictor for the tide check: the constants read by Debian's libtcd (libtcd.py),
the node factors and equilibrium arguments taken from the harmonics file's own tables (XTide's congen computed them;
Telltale computes its own from the astronomy), events found by sampling every 30 s and a parabola through the
samples (Telltale follows the derivative), subordinate stations' offsets applied as XTide documents them. It shares
no code with Telltale.

    ref = Reference(TCD(path))
    ref.station(1756).level(unix)            # metres (tides) or knots (currents, flood positive)
    ref.station(13).events(start, end)       # [(unix, "high"|"low"|"flood"|"ebb"|"slack", value)]
"""
import calendar
import math
import time

from libtcd import hours

FEET = 0.3048


class Harmonic:
    """A reference station's constants, or a subordinate's reduced to them (simple offsets)."""

    def __init__(self, db, rec, time_add=0.0, level_add=0.0, multiply=1.0):
        self.db, self.rec = db, rec
        units = rec["units"]
        self.hydraulic = units == "knots^2"
        self.current = units.startswith("knots")
        self.scale = FEET if units == "feet" else 1.0
        # The meridian normalised to UTC: a station kept on UTC−10 needs its phases moved ten hours on.
        shift = time_add - hours(rec["zone"])
        self.terms = [(db.speed(i), amplitude * multiply, epoch + shift * db.speed(i), i)
                      for i, amplitude, epoch in rec["constituents"]]
        self.datum = rec["datum_offset"] * multiply + level_add
        self.year_terms = {}

    def _year(self, year):
        if year not in self.year_terms:
            self.year_terms[year] = [(math.radians(speed) / 3600, f_amp, math.radians(arg))
                                     for speed, f_amp, arg in
                                     ((s, a * self.db.node_factor(i, year), self.db.equilibrium(i, year) - k)
                                      for s, a, k, i in self.terms)]
        return self.year_terms[year]

    def raw(self, t):
        year = time_year(t)
        since = t - calendar.timegm((year, 1, 1, 0, 0, 0))
        return sum(a * math.cos(w * since + p) for w, a, p in self._year(year))

    def level(self, t):
        x = self.raw(t)
        if self.hydraulic:
            x = math.copysign(math.sqrt(abs(x)), x)
        return (x + self.datum) * self.scale


def time_year(t):
    return time.gmtime(t).tm_year


class Reference:
    def __init__(self, db):
        self.db = db

    def station(self, number):
        rec = self.db.record(number)
        if rec["type"] == 1:
            return Station(Harmonic(self.db, rec), rec)
        ref = self.db.record(rec["reference"])
        low = (hours(rec["min_time_add"]), rec["min_level_add"], rec["min_level_multiply"])
        high = (hours(rec["max_time_add"]), rec["max_level_add"], rec["max_level_multiply"])
        flood = None if rec["flood_begins"] is None else hours(rec["flood_begins"])
        ebb = None if rec["ebb_begins"] is None else hours(rec["ebb_begins"])
        hydraulic = ref["units"] == "knots^2"
        simple = (low == high and (flood is None or (flood == high[0] and high[1] == 0))
                  and (ebb is None or (ebb == high[0] and high[1] == 0)) and (not hydraulic or high[2] == 1.0))
        if simple:
            return Station(Harmonic(self.db, ref, high[0], high[1], high[2]), rec)
        return Subordinate(Harmonic(self.db, ref), rec, low, high, flood, ebb)


class Station:
    def __init__(self, harmonic, rec):
        self.harmonic, self.rec = harmonic, rec
        self.current = harmonic.current

    def level(self, t):
        return self.harmonic.level(t)

    def prepare(self, start, end):
        pass

    def events(self, start, end, step=30.0):
        """Extremes and (currents) slacks between start and end."""
        return extremes_and_slacks(self.level, start, end, step, self.current)


def without_stands(events, rise=0.02):
    """A high and a low less than 2 cm apart are a stand, not two tides (NOAA lists neither; nor does Telltale)."""
    out = []
    for event in events:
        if out and out[-1][1] != event[1] and abs(out[-1][2] - event[2]) < rise:
            out.pop()
            continue
        out.append(event)
    return out


def extremes_and_slacks(level, start, end, step, current):
    out = []
    t, values = start - step, []
    while t <= end + step:
        values.append((t, level(t)))
        t += step
    for (t0, a), (t1, b), (t2, c) in zip(values, values[1:], values[2:]):
        if (b > a and b >= c) or (b < a and b <= c):
            denominator = a - 2 * b + c
            dx = 0.5 * (a - c) / denominator if denominator else 0.0
            when, value = t1 + dx * step, b - 0.25 * (a - c) * dx
            high = b > a
            kind = ("flood" if high else "ebb") if current else ("high" if high else "low")
            if current and (value > 0) != high:
                continue  # a current that slackens without turning: not a flood or an ebb
            if start <= when < end:
                out.append((when, kind, value))
    if not current:
        return without_stands(sorted(out))
    if current:
        for (t0, a), (t1, b) in zip(values, values[1:]):
            if (a < 0) != (b < 0):
                when = t0 + step * a / (a - b)
                if start <= when < end:
                    out.append((when, "slack", 0.0))
    return sorted(out)


class Subordinate:
    """XTide's hairy offsets: the reference's events moved and scaled, the curve between them mapped in time and
    level from the reference's."""

    def __init__(self, harmonic, rec, low, high, flood, ebb):
        self.harmonic, self.rec = harmonic, rec
        self.low, self.high, self.flood, self.ebb = low, high, flood, ebb
        self.current = harmonic.current
        self.scale = harmonic.scale

    def _brackets(self, start, end):
        ref = extremes_and_slacks(self.harmonic.level, start - 86400, end + 86400, 30.0, self.current)
        out = []
        for t, kind, value in ref:
            raw = value / self.scale
            if kind in ("high", "flood"):
                out.append((t + self.high[0] * 3600, raw * self.high[2] + self.high[1], t, raw, kind))
            elif kind in ("low", "ebb"):
                out.append((t + self.low[0] * 3600, raw * self.low[2] + self.low[1], t, raw, kind))
            elif kind == "slack" and self.current:
                # A slack before a flood is when the flood begins.
                after = next((k for tt, k, _ in ref if tt > t and k != "slack"), None)
                add = self.flood if after == "flood" else self.ebb
                if add is not None:
                    out.append((t + add * 3600, 0.0, t, 0.0, kind))
        return sorted(out)

    def prepare(self, start, end):
        """Keeps the brackets of a span, for many levels asked within it."""
        self.cached = (start, end, self._brackets(start, end))

    def level(self, t, brackets=None):
        if brackets is None:
            cached = getattr(self, "cached", None)
            brackets = cached[2] if cached and cached[0] <= t < cached[1] else self._brackets(t - 86400, t + 86400)
        for (s0, v0, u0, r0, _), (s1, v1, u1, r1, _) in zip(brackets, brackets[1:]):
            if s0 <= t < s1:
                fraction = (t - s0) / (s1 - s0)
                if r1 == r0:
                    return (v0 + (v1 - v0) * fraction) * self.scale
                ref = self.harmonic.level(u0 + (u1 - u0) * fraction) / self.scale
                return (v0 + (v1 - v0) * (ref - r0) / (r1 - r0)) * self.scale
        return None

    def events(self, start, end):
        brackets = self._brackets(start, end)
        if not self.current:
            return [e for e in without_stands([(s, kind, v * self.scale) for s, v, _, _, kind in brackets])
                    if start <= e[0] < end]
        out = [(s, kind, v * self.scale) for s, v, _, _, kind in brackets if start <= s < end]
        if self.current:
            for (s0, v0, u0, r0, k0), (s1, v1, u1, r1, k1) in zip(brackets, brackets[1:]):
                missing = (k0 == "flood" and self.ebb is None) or (k0 == "ebb" and self.flood is None)
                if missing and (v0 > 0) != (v1 > 0):
                    lo, hi = s0, s1
                    for _ in range(40):
                        mid = (lo + hi) / 2
                        if (self.level(mid, brackets) > 0) == (v0 > 0):
                            lo = mid
                        else:
                            hi = mid
                    if start <= lo < end:
                        out.append((lo, "slack", 0.0))
        return sorted(out)
