"""The route check's forecast, written with ECMWF's own ecCodes (Debian's python3-eccodes): 10 m wind over southern
Brittany (Quiberon bay, Belle-Île, Houat and Hoëdic, the Quiberon peninsula), hourly for 48 hours on a 0.05° grid:

- a cold front moving east at 0.04° an hour: south-westerly 14 kn ahead of it veering to a north-westerly 18 kn
  behind it, across 0.15° of longitude;
- a hole of light wind (a fifth of the rest at its middle, 0.12° across) west of Quiberon, drifting north-east.

    /usr/bin/python3 routing_grib.py OUT.grb2 YYYYMMDD HH [--holes]

--holes leaves a block of values missing (a bitmap) in the first six hours, as a GRIB cut to a coast sometimes has.
Also imported by routing_check.py for the same formula (`wind(lat, lon, hours)`, m/s towards east and north).
"""
import math
import sys

SOUTH, WEST, ROWS, COLUMNS, STEP = 46.9, -3.9, 21, 31, 0.05
HOURS = 48
KNOT = 1852 / 3600


def wind(lat, lon, hours):
    """The wind at a place and time since the run: (u, v) in m/s (towards east and north)."""
    front = -4.2 + 0.04 * hours
    behind = 0.5 * (1 + math.tanh((front - lon) / 0.05))  # 1 well behind (west of) the front
    direction = 225 + 90 * behind  # the direction it blows from
    speed = (14 + 4 * behind) * KNOT
    hole_lat, hole_lon = 47.5 + 0.002 * hours, -3.25 + 0.002 * hours
    d2 = ((lat - hole_lat) / 0.12) ** 2 + ((lon - hole_lon) / (0.12 / math.cos(math.radians(lat)))) ** 2
    speed *= 1 - 0.8 * math.exp(-d2)
    radians = math.radians(direction)
    return -speed * math.sin(radians), -speed * math.cos(radians)


def write(path, date, hour, holes=False, field=None, south=SOUTH, west=WEST, rows=ROWS, columns=COLUMNS, step=STEP,
          hours=range(HOURS + 1)):
    """10 m wind of `field(lat, lon, hours)` (this check's front and hole by default) on a regular grid from `south`,
    `west`, north first as ECMWF writes it, at each of `hours` after the run."""
    import eccodes
    import numpy as np

    field = field or wind
    lats = [south + step * r for r in range(rows)]
    lons = [west + step * c for c in range(columns)]
    with open(path, "wb") as out:
        for hour_on in hours:
            for index, short in ((0, "10u"), (1, "10v")):
                h = eccodes.codes_grib_new_from_samples("regular_ll_sfc_grib2")
                eccodes.codes_set(h, "shortName", short)
                eccodes.codes_set(h, "dataDate", date)
                eccodes.codes_set(h, "dataTime", hour * 100)
                eccodes.codes_set(h, "step", hour_on)
                eccodes.codes_set(h, "Ni", columns)
                eccodes.codes_set(h, "Nj", rows)
                eccodes.codes_set(h, "latitudeOfFirstGridPointInDegrees", lats[-1])
                eccodes.codes_set(h, "longitudeOfFirstGridPointInDegrees", lons[0])
                eccodes.codes_set(h, "latitudeOfLastGridPointInDegrees", lats[0])
                eccodes.codes_set(h, "longitudeOfLastGridPointInDegrees", lons[-1])
                eccodes.codes_set(h, "iDirectionIncrementInDegrees", step)
                eccodes.codes_set(h, "jDirectionIncrementInDegrees", step)
                eccodes.codes_set(h, "jScansPositively", 0)
                data = np.array([field(lat, lon, hour_on)[index] for lat in reversed(lats) for lon in lons])
                if holes and hour_on < 6:
                    eccodes.codes_set(h, "bitmapPresent", 1)
                    eccodes.codes_set(h, "missingValue", 9999)
                    for r in range(3):
                        for c in range(4):
                            data[r * columns + c] = 9999
                eccodes.codes_set(h, "bitsPerValue", 16)
                eccodes.codes_set_values(h, data)
                eccodes.codes_write(h, out)
                eccodes.codes_release(h)


if __name__ == "__main__":
    write(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), holes="--holes" in sys.argv)
