"""GRIB files of known fields, written with ECMWF's own ecCodes (Debian's python3-eccodes), for the weather checks.

Every field is linear in latitude, longitude and time, so the forecast at any point between the grid's points and
times is the field's own formula: what Telltale interpolates is checked against it exactly, not against itself.

  grib1_ncep(path, ...)   GRIB edition 1 as NCEP's GFS comes from Saildocs: centre kwbc, table 2 version 2,
                          UGRD/VGRD at 10 m, PRMSL, APCP accumulated over NCEP's alternating 0-3 h / 0-6 h periods,
                          TCDC in percent; rows north to south, longitudes 0-360.
  grib2_ecmwf(path, ...)  GRIB edition 2 as ECMWF's: 10u/10v, msl, instantaneous gust, tp accumulated from the
                          start of the run in metres, tcc as a fraction.

Run with Debian's python3 (the one python3-eccodes is installed for): /usr/bin/python3 weather_grib.py DIR.
"""

import sys

import eccodes
import numpy as np


class Field:
    """value = base + per_lat * (lat - lat0) + per_lon * (lon - lon0) + per_hour * hours since the run."""

    def __init__(self, base, per_lat=0.0, per_lon=0.0, per_hour=0.0):
        self.base, self.per_lat, self.per_lon, self.per_hour = base, per_lat, per_lon, per_hour

    def at(self, lat, lon, hours, lat0, lon0):
        return self.base + self.per_lat * (lat - lat0) + self.per_lon * (lon - lon0) + self.per_hour * hours


# The fields of the checks (SI: m/s, Pa; rain in mm/h, cloud in percent). The rain rate is constant in time, so an
# accumulation over any period is the rate times its hours.
FIELDS = {
    "u": Field(4.0, per_lat=0.5, per_lon=-0.25, per_hour=0.1),
    "v": Field(-3.0, per_lat=-0.2, per_lon=0.4, per_hour=0.05),
    "pressure": Field(101_300.0, per_lat=-40.0, per_lon=25.0, per_hour=-50.0),
    "gust": Field(9.0, per_lat=0.3, per_lon=0.1, per_hour=0.02),
    "rain": Field(1.5, per_lat=0.1, per_lon=0.05),
    "cloud": Field(60.0, per_lat=2.0, per_lon=-1.0, per_hour=0.5),
    # The sea's surface current, m/s (an ocean model's).
    "current-u": Field(0.6, per_lat=0.05, per_lon=-0.02, per_hour=0.01),
    "current-v": Field(-0.3, per_lat=0.01, per_lon=0.04, per_hour=-0.005),
}


def grid(south, west, rows, columns, step):
    lats = [south + step * r for r in range(rows)]
    lons = [west + step * c for c in range(columns)]
    return lats, lons


def values(field, lats, lons, hours, north_first, lat0, lon0, scale=1.0):
    rows = reversed(lats) if north_first else lats
    return np.array([field.at(lat, lon, hours, lat0, lon0) * scale for lat in rows for lon in lons], dtype=float)


def set_grid(h, lats, lons, north_first, lon_0_360):
    first_lat, last_lat = (lats[-1], lats[0]) if north_first else (lats[0], lats[-1])
    first_lon, last_lon = lons[0], lons[-1]
    if lon_0_360:
        first_lon %= 360
        last_lon %= 360
    step = lats[1] - lats[0]
    eccodes.codes_set(h, "Ni", len(lons))
    eccodes.codes_set(h, "Nj", len(lats))
    eccodes.codes_set(h, "jScansPositively", 0 if north_first else 1)
    eccodes.codes_set(h, "latitudeOfFirstGridPointInDegrees", first_lat)
    eccodes.codes_set(h, "latitudeOfLastGridPointInDegrees", last_lat)
    eccodes.codes_set(h, "longitudeOfFirstGridPointInDegrees", first_lon)
    eccodes.codes_set(h, "longitudeOfLastGridPointInDegrees", last_lon)
    eccodes.codes_set(h, "iDirectionIncrementInDegrees", step)
    eccodes.codes_set(h, "jDirectionIncrementInDegrees", step)


def grib1_ncep(path, run_date, run_hour, steps, south=48.0, west=-5.0, rows=9, columns=13, step=0.5):
    """NCEP-style GRIB1 (Saildocs): run at run_date (YYYYMMDD) run_hour, forecast hours `steps`."""
    lats, lons = grid(south, west, rows, columns, step)
    with open(path, "wb") as out:
        for hours in steps:
            messages = [("u", 33, 105, 10, 1.0), ("v", 34, 105, 10, 1.0), ("pressure", 2, 102, 0, 1.0),
                        ("cloud", 71, 200, 0, 1.0)]
            if hours > 0:
                messages.append(("rain", 61, 1, 0, None))
            for name, parameter, level_type, level, scale in messages:
                h = eccodes.codes_grib_new_from_samples("regular_ll_sfc_grib1")
                eccodes.codes_set(h, "centre", "kwbc")
                eccodes.codes_set(h, "table2Version", 2)
                eccodes.codes_set(h, "indicatorOfParameter", parameter)
                eccodes.codes_set(h, "indicatorOfTypeOfLevel", level_type)
                eccodes.codes_set(h, "level", level)
                eccodes.codes_set(h, "dataDate", run_date)
                eccodes.codes_set(h, "dataTime", run_hour * 100)
                set_grid(h, lats, lons, north_first=True, lon_0_360=True)
                if name == "rain":
                    # NCEP's periods: 0-3 h, then 0-6 h, 6-9 h, 6-12 h...
                    start = (hours - 1) // 6 * 6
                    eccodes.codes_set(h, "timeRangeIndicator", 4)
                    eccodes.codes_set(h, "P1", start)
                    eccodes.codes_set(h, "P2", hours)
                    # The amount (mm) over the period: the rate times its hours (the rate is constant in time).
                    data = values(FIELDS["rain"], lats, lons, 0, True, south, west, scale=hours - start)
                else:
                    eccodes.codes_set(h, "timeRangeIndicator", 0)
                    eccodes.codes_set(h, "P1", hours)
                    data = values(FIELDS[name], lats, lons, hours, True, south, west)
                eccodes.codes_set(h, "bitsPerValue", 16)
                eccodes.codes_set_values(h, data)
                eccodes.codes_write(h, out)
                eccodes.codes_release(h)


def grib2_ecmwf(path, run_date, run_hour, steps, south=48.0, west=-5.0, rows=9, columns=13, step=0.5):
    """ECMWF-style GRIB2: rain accumulated from the start of the run, in metres; cloud as a fraction."""
    lats, lons = grid(south, west, rows, columns, step)
    with open(path, "wb") as out:
        for hours in steps:
            messages = [("u", "10u", 1.0), ("v", "10v", 1.0), ("pressure", "msl", 1.0), ("gust", "i10fg", 1.0),
                        ("cloud", "tcc", 0.01)]
            if hours > 0:
                messages.append(("rain", "tp", None))
            for name, short, scale in messages:
                h = eccodes.codes_grib_new_from_samples("regular_ll_sfc_grib2")
                if name == "rain":
                    eccodes.codes_set(h, "productDefinitionTemplateNumber", 8)
                eccodes.codes_set(h, "shortName", short)
                eccodes.codes_set(h, "dataDate", run_date)
                eccodes.codes_set(h, "dataTime", run_hour * 100)
                set_grid(h, lats, lons, north_first=False, lon_0_360=False)
                if name == "rain":
                    eccodes.codes_set(h, "stepRange", "0-%d" % hours)
                    data = values(FIELDS["rain"], lats, lons, 0, False, south, west, scale=hours / 1000.0)
                else:
                    eccodes.codes_set(h, "step", hours)
                    data = values(FIELDS[name], lats, lons, hours, False, south, west, scale=scale)
                eccodes.codes_set(h, "bitsPerValue", 16)
                eccodes.codes_set_values(h, data)
                eccodes.codes_write(h, out)
                eccodes.codes_release(h)


def grib2_rtofs(path, run_date, run_hour, steps, south=29.0, west=-41.0, rows=9, columns=13, step=0.5):
    """An ocean model's GRIB2 as NCEP's RTOFS: the surface current's components (discipline 10, category 1,
    parameters 2 and 3: ecCodes' ucurr and vcurr) at the ocean's surface, and nothing of the air."""
    lats, lons = grid(south, west, rows, columns, step)
    with open(path, "wb") as out:
        for hours in steps:
            for name, number in (("current-u", 2), ("current-v", 3)):
                h = eccodes.codes_grib_new_from_samples("regular_ll_sfc_grib2")
                eccodes.codes_set(h, "centre", "kwbc")
                eccodes.codes_set(h, "discipline", 10)
                eccodes.codes_set(h, "parameterCategory", 1)
                eccodes.codes_set(h, "parameterNumber", number)
                eccodes.codes_set(h, "typeOfLevel", "oceanSurface")
                eccodes.codes_set(h, "dataDate", run_date)
                eccodes.codes_set(h, "dataTime", run_hour * 100)
                set_grid(h, lats, lons, north_first=False, lon_0_360=False)
                eccodes.codes_set(h, "step", hours)
                eccodes.codes_set(h, "bitsPerValue", 16)
                eccodes.codes_set_values(h, values(FIELDS[name], lats, lons, hours, False, south, west))
                eccodes.codes_write(h, out)
                eccodes.codes_release(h)


if __name__ == "__main__":
    folder = sys.argv[1]
    grib1_ncep(folder + "/ncep.grb", 20261125, 0, range(0, 25, 3))
    grib2_ecmwf(folder + "/ecmwf.grib2", 20261125, 6, range(0, 25, 3))
