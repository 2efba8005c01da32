"""A GRIB2 forecast made from the demo voyage's own true wind (../demo-voyage/truth.csv), for the forecast-voyage
fixture: the wind of each five minutes (the vector mean of the truth's direction and speed over them) on a small
grid around the course, the same at every point, and a mean sea-level pressure falling 1 hPa an hour.

Run with Debian's python3 (python3-eccodes): /usr/bin/python3 make_grib.py ../demo-voyage/truth.csv forecast.grib2
"""

import csv
import math
import os
import sys
import time

import eccodes
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Interop"))
from weather_grib import set_grid  # noqa: E402

truth, output = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(truth)))
start = float(rows[0]["time_s"])
run = int(start // 3600 * 3600)  # the model run: the hour the voyage starts in
step = 300
bins = {}
for row in rows:
    t = float(row["time_s"])
    k = int((t - run) // step)
    speed = float(row["tws_kn"]) * 1852 / 3600
    towards = math.radians(float(row["twd"]) + 180)
    u, v, n = bins.get(k, (0.0, 0.0, 0))
    bins[k] = (u + speed * math.sin(towards), v + speed * math.cos(towards), n + 1)
# Each forecast time holds the mean of the five minutes around it; the first and last times repeat their neighbours.
keys = sorted(bins)
times = list(range(keys[0], keys[-1] + 2))
lats = [50.70, 50.80, 50.90]
lons = [-1.40, -1.30, -1.20]
with open(output, "wb") as out:
    for k in times:
        near = [j for j in (k - 1, k) if j in bins] or [keys[0] if k < keys[0] else keys[-1]]
        u = sum(bins[j][0] for j in near) / sum(bins[j][2] for j in near)
        v = sum(bins[j][1] for j in near) / sum(bins[j][2] for j in near)
        minutes = k * step // 60
        for short, value in (("10u", u), ("10v", v), ("msl", 101_500.0 - 100.0 * k * step / 3600)):
            h = eccodes.codes_grib_new_from_samples("regular_ll_sfc_grib2")
            eccodes.codes_set(h, "shortName", short)
            eccodes.codes_set(h, "dataDate", int(time.strftime("%Y%m%d", time.gmtime(run))))
            eccodes.codes_set(h, "dataTime", int(time.strftime("%H%M", time.gmtime(run))))
            set_grid(h, lats, lons, north_first=False, lon_0_360=True)
            eccodes.codes_set(h, "indicatorOfUnitOfTimeRange", 0)  # minutes
            eccodes.codes_set(h, "forecastTime", minutes)
            eccodes.codes_set(h, "bitsPerValue", 16)
            eccodes.codes_set_values(h, np.full(len(lats) * len(lons), value))
            eccodes.codes_write(h, out)
            eccodes.codes_release(h)
