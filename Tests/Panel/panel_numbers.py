"""The panel's numbers against the gateway's NMEA output (panel_check.py): the apparent wind, true wind, boat speed,
heading, heel and depth tiles equal the values in the output at the same moment, within the display's resolution and
the sentence's own (the page must fall within what the output said over the moment around it)."""
import time


class Reading:
    """The page's tiles read beside the gateway's output: `text(tile, q)` a number as shown, `value(tile, q)` its
    element, `seen(since, until, pick)` what the output said in that time."""

    def __init__(self, text, value, seen):
        self.text, self.value, self.seen = text, value, seen

    def compare(self, tile, q, pick, resolution, sentence_resolution, convert=lambda x: x, angle=False, signed=False):
        """The tile's number must fall within what the output said around the moment it was read."""
        last = ""
        for _ in range(6):
            at = time.monotonic()
            shown = self.text(tile, q)
            side = self.value(tile, q).get_attribute("class")
            time.sleep(1.2)
            values = [convert(v) for v in self.seen(at - 3, at + 1, pick)]
            if not values or shown in ("", "—"):
                last = f"shown {shown!r}, output {values}"
                continue
            number = float(shown.replace("−", "-"))
            if signed:
                number = -number if "port" in side else number
                values = [v - 360 if v > 180 else v for v in values]
            tolerance = resolution / 2 + sentence_resolution / 2 + 1e-6
            if angle:
                ok = any(abs((number - v + 180) % 360 - 180) <= tolerance for v in values)
            else:
                ok = min(values) - tolerance <= number <= max(values) + tolerance
            if ok:
                return True, f"{shown} vs {sorted(set(round(v, 3) for v in values))}"
            last = f"shown {shown} ({side}), output {sorted(set(round(v, 3) for v in values))}"
        return False, last


def numbers_against_output(check, reading, held, mwv, sentence, swipe, wait, xdr):
    """Once the feed holds still, each tile's number within what the output said around the moment it was read."""
    wait(lambda: held.index >= 60, 90, 0.5)
    time.sleep(8)  # the engine's damping settles on the held values

    computed = reading.seen(0, time.monotonic(), mwv("R", "II", "speed"))
    aw_talker = "II" if computed else "WI"
    for tile, q, pick, resolution, sentence_resolution, kwargs, what in [
        ("aw", "aws", mwv("R", aw_talker, "speed"), 0.1, 0.1, {}, "apparent wind speed (kn)"),
        ("aw", "awa", mwv("R", aw_talker, "angle"), 1, 0.1, {"signed": True}, "apparent wind angle, side by colour"),
        ("tw", "tws", mwv("T", "II", "speed"), 0.1, 0.1, {}, "true wind speed (kn)"),
        ("tw", "twa", mwv("T", "II", "angle"), 1, 0.1, {"signed": True}, "true wind angle"),
        ("tw", "twd", sentence("MWD", 1, "II"), 1, 0.1, {"angle": True}, "true wind direction"),
        ("speed", "stw", sentence("VHW", 5), 0.01, 0.01, {}, "boat speed through the water (kn)"),
        ("speed", "sog", sentence("RMC", 7), 0.01, 0.01, {}, "speed over ground (kn)"),
        ("heading", "hdg", sentence("HDT", 1, "II"), 1, 0.1, {"angle": True}, "heading true"),
        ("heel", "heel", xdr("ROLL"), 1, 0.1, {"convert": abs}, "heel (degrees, side by colour)"),
        ("depth", "depth", sentence("DPT", 1), 0.1, 0.1, {}, "depth below the transducer (m)"),
    ]:
        ok, detail = reading.compare(tile, q, pick, resolution, sentence_resolution, **kwargs)
        check(ok, f"tile {tile}: {what} equals the NMEA output", detail)

    # The racing layout (a swipe left): the polar tile against the XDR the gateway computes from the same polar.
    swipe(330, 60, 450)
    time.sleep(1)
    for tile, q, pick, resolution, sentence_resolution, kwargs, what in [
        ("polar", "pct", xdr("POLPCT"), 1, 1, {}, "polar percentage"),
        ("polar", "tgttwa", xdr("TGTTWA"), 1, 0.1, {"angle": True}, "target true wind angle"),
    ]:
        ok, detail = reading.compare(tile, q, pick, resolution, sentence_resolution, **kwargs)
        check(ok, f"tile {tile}: {what} equals the NMEA output", detail)
    swipe(60, 330, 450)
    time.sleep(1)
