"""The demo voyage's forecast (Fixtures/demo-voyage/forecast.grb), as Saildocs would send it for the Solent on the
morning of the voyage: GRIB edition 1 in NCEP's GFS tables, written with ECMWF's ecCodes, 0.25 degrees from 50N 2.5W
to 51.5N 0E, every 3 hours for 48 hours from 06Z on 21 June 2026: 10 m wind, gusts, mean sea-level pressure,
precipitation (NCEP's alternating 0-3/0-6 h accumulations) and total cloud.

During the voyage (10:00-10:32Z) the wind is the voyage's own, about 14 kn from 224 degrees; then a front comes
through: the barometer falls 12 hPa to midnight, the wind backs south and rises to 22 kn gusting 32 with rain, and
veers north-west behind it as the pressure rises. A sailor's bench demo of the weather page.

Run with Debian's python3 (python3-eccodes): /usr/bin/python3 make_forecast.py forecast.grb
"""
import math
import os
import sys

import eccodes
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Interop"))
from weather_grib import set_grid  # noqa: E402

RUN_DATE, RUN_HOUR = 20260621, 6
LATS = [50.0 + 0.25 * i for i in range(7)]
LONS = [-2.5 + 0.25 * i for i in range(11)]


def weather(hours):
    """(from degrees, knots, gust knots, hPa, rain mm/h, cloud %) at the middle of the area, `hours` after the run."""
    t = hours - 4.3  # hours after the voyage's start
    if t < 6:
        direction, knots, pressure, rain, cloud = 224 + 2 * t, 14 + 0.3 * t, 1015.0 - 0.3 * max(t, 0), 0.0, 30 + 5 * t
    elif t < 14:
        s = (t - 6) / 8
        direction, knots, pressure, rain, cloud = 236 - 36 * s, 16 + 6 * s, 1013.2 - 10 * s, 4 * s, 60 + 35 * s
    elif t < 20:
        s = (t - 14) / 6
        direction, knots, pressure, rain, cloud = 200 + 105 * s, 22 + 3 * s, 1003.2 + 4 * s, 4 * (1 - s), 95 - 40 * s
    else:
        s = min((t - 20) / 24, 1)
        direction, knots, pressure, rain, cloud = 305 - 15 * s, 25 - 13 * s, 1007.2 + 9 * s, 0.0, 55 - 35 * s
    return direction, knots, knots * 1.45, pressure, rain, cloud


def grid(value, lat_gradient, lon_gradient):
    return np.array([value + lat_gradient * (lat - 50.75) + lon_gradient * (lon + 1.25)
                     for lat in reversed(LATS) for lon in LONS])


def message(out, parameter, level_type, level, values, p1, p2, range_indicator):
    h = eccodes.codes_grib_new_from_samples("regular_ll_sfc_grib1")
    eccodes.codes_set(h, "centre", "kwbc")
    eccodes.codes_set(h, "table2Version", 2)
    eccodes.codes_set(h, "indicatorOfParameter", parameter)
    eccodes.codes_set(h, "indicatorOfTypeOfLevel", level_type)
    eccodes.codes_set(h, "level", level)
    eccodes.codes_set(h, "dataDate", RUN_DATE)
    eccodes.codes_set(h, "dataTime", RUN_HOUR * 100)
    set_grid(h, LATS, LONS, north_first=True, lon_0_360=True)
    eccodes.codes_set(h, "timeRangeIndicator", range_indicator)
    eccodes.codes_set(h, "P1", p1)
    eccodes.codes_set(h, "P2", p2)
    eccodes.codes_set(h, "bitsPerValue", 16)
    eccodes.codes_set_values(h, values)
    eccodes.codes_write(h, out)
    eccodes.codes_release(h)


with open(sys.argv[1], "wb") as out:
    for hours in range(0, 49, 3):
        direction, knots, gust, pressure, _, cloud = weather(hours)
        speed = knots * 1852 / 3600
        towards = math.radians(direction + 180)
        u, v = speed * math.sin(towards), speed * math.cos(towards)
        message(out, 33, 105, 10, grid(u, 0.4, -0.2), hours, 0, 0)
        message(out, 34, 105, 10, grid(v, -0.2, 0.3), hours, 0, 0)
        message(out, 2, 102, 0, grid(pressure * 100, -60, 20), hours, 0, 0)
        message(out, 71, 200, 0, grid(cloud, 2, -1), hours, 0, 0)
        if hours > 0:
            start = (hours - 1) // 6 * 6
            # The amount over NCEP's period: the rate at each hour of it, summed.
            amount = sum(weather(start + k + 0.5)[4] for k in range(hours - start))
            message(out, 61, 1, 0, grid(amount, 0.2, 0.1), start, hours, 4)
    # Gusts: NCEP's GRIB1 number 180 at the surface.
    for hours in range(0, 49, 3):
        message(out, 180, 1, 0, grid(weather(hours)[2] * 1852 / 3600, 0.3, 0.1), hours, 0, 0)
