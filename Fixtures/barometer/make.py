"""A barometer's log for the pressure-fall alarm (Fixtures/barometer/falling.nmea): MDA every 10 seconds for five
hours, each with its NMEA 4.10 tag-block time, as an Airmar weather station sends it. Steady at 1015.0 hPa for an
hour, falling 0.8 hPa an hour for three hours (2.4 hPa in 3 h: "falling", no alarm), then 2 hPa an hour.

Worked by hand: after 4 h the change over three hours is -240 Pa - (120 Pa/h) x (t - 4 h), so it reaches -300 Pa
(3 hPa in 3 h, the alarm's default) at t = 4.5 h. The barograph compares minute means, the last complete minute
with the one three hours before it, so the alarm is raised once minute 270 (16,200-16,260 s) is complete: at
16,260 s, the first tick of minute 271. Run: python3 make.py > falling.nmea
"""

from functools import reduce

START = 1_782_000_000  # 2026-06-21T00:00:00Z


def checksum(body):
    return "%02X" % reduce(lambda a, c: a ^ ord(c), body, 0)


def pascals(t):
    if t < 3600:
        return 101_500.0
    if t < 14_400:
        return 101_500.0 - 80.0 * (t - 3600) / 3600
    return 101_260.0 - 200.0 * (t - 14_400) / 3600


for t in range(0, 5 * 3600 + 1, 10):
    p = pascals(t)
    body = "WIMDA,%.4f,I,%.5f,B,18.5,C,,C,72.0,,12.1,C,,T,,M,,N,,M" % (p / 3386.389, p / 100_000)
    tag = "c:%d" % ((START + t) * 1000)
    print("\\%s*%s\\$%s*%s" % (tag, checksum(tag), body, checksum(body)), end="\r\n")
