"""A harmonics file of a sailor's own, written by Debian's libtcd (create_tide_db, add_tide_record): the stations of
another file copied, or made up, with a set of constituents and years of its own (not the packaged file's 176 and
401, so that every table ends mid-byte).

    python3 make_tcd.py OUT.tcd SOURCE.tcd
"""
import ctypes
import sys

from libtcd import TCD, Record


def make(out, source, constituents=("M2", "S2", "N2", "K1", "O1", "M4", "K2", "P1"), first=2020, years=13):
    """Writes `out` with three stations: a made-up harbour (a tide), its subordinate (offsets), and a copy of
    Honolulu's constants under another name, each from `source`'s constituents restricted to `constituents`."""
    db = TCD(source)
    lib = db.lib
    index = {db.constituent(i): i for i in range(db.header.constituents)}
    chosen = [index[name] for name in constituents]
    names = (ctypes.c_char_p * len(chosen))(*[n.encode() for n in constituents])
    speeds = (ctypes.c_double * len(chosen))(*[db.speed(i) for i in chosen])
    rows = lambda get: [(ctypes.c_float * years)(*[get(i, first + y) for y in range(years)]) for i in chosen]  # noqa
    equilibrium = rows(db.equilibrium)
    node = rows(db.node_factor)
    eq_array = (ctypes.POINTER(ctypes.c_float) * len(chosen))(*[ctypes.cast(r, ctypes.POINTER(ctypes.c_float))
                                                               for r in equilibrium])
    node_array = (ctypes.POINTER(ctypes.c_float) * len(chosen))(*[ctypes.cast(r, ctypes.POINTER(ctypes.c_float))
                                                                 for r in node])
    honolulu = Record()
    lib.read_tide_record(13, ctypes.byref(honolulu))
    lib.create_tide_db.argtypes = [ctypes.c_char_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_char_p),
                                   ctypes.POINTER(ctypes.c_double), ctypes.c_int32, ctypes.c_uint32,
                                   ctypes.POINTER(ctypes.POINTER(ctypes.c_float)),
                                   ctypes.POINTER(ctypes.POINTER(ctypes.c_float))]
    if not lib.create_tide_db(out.encode(), len(chosen), names, speeds, first, years, eq_array, node_array):
        raise OSError(f"libtcd could not create {out}")
    header = lib.get_tide_db_header()
    feet = lib.find_level_units(b"feet")
    metres = lib.find_level_units(b"meters")
    degrees = lib.find_dir_units(b"degrees true")
    datum = lib.find_or_add_datum(b"Lowest Astronomical Tide", ctypes.byref(header))
    zone = lib.find_or_add_tzfile(b":UTC", ctypes.byref(header))
    country = lib.find_or_add_country(b"Atlantis", ctypes.byref(header))
    lib.add_tide_record.argtypes = [ctypes.POINTER(Record), ctypes.POINTER(type(header))]

    def base(name, lat, lon, kind):
        rec = Record()
        rec.header.record_number = 0
        rec.header.record_type = kind
        rec.header.latitude, rec.header.longitude = lat, lon
        rec.header.reference_station = -1
        rec.header.tzfile = zone
        rec.header.name = name.encode()
        rec.country = country
        rec.source = b"Telltale's tide check"
        rec.direction_units = degrees
        rec.min_direction = rec.max_direction = 361
        rec.flood_begins = rec.ebb_begins = 0xA00
        return rec

    harbour = base("Telltale Test Harbour", 50.1234, -5.4321, 1)
    harbour.level_units = metres
    harbour.datum = datum
    harbour.datum_offset = 2.5
    harbour.zone_offset = 0
    for k, i in enumerate(chosen):
        amplitude = {"M2": 1.6, "S2": 0.55, "N2": 0.31, "K1": 0.07, "O1": 0.06, "M4": 0.04}.get(constituents[k], 0.02)
        harbour.amplitude[k], harbour.epoch[k] = amplitude, (37.0 * (k + 1)) % 360
    lib.add_tide_record(ctypes.byref(harbour), ctypes.byref(header))
    copy = base("Telltale Copy of Honolulu", honolulu.header.latitude, honolulu.header.longitude, 1)
    copy.level_units = feet
    copy.datum = datum
    copy.datum_offset = honolulu.datum_offset
    copy.zone_offset = honolulu.zone_offset
    for k, i in enumerate(chosen):
        copy.amplitude[k], copy.epoch[k] = honolulu.amplitude[i], honolulu.epoch[i]
    lib.add_tide_record(ctypes.byref(copy), ctypes.byref(header))
    creek = base("Telltale Test Creek", 50.2, -5.3, 2)
    creek.header.reference_station = 0
    creek.level_units = metres
    creek.min_time_add, creek.max_time_add = 45, 110  # 0:45 and 1:10 later
    creek.min_level_add, creek.max_level_add = 0.1, -0.2
    creek.min_level_multiply, creek.max_level_multiply = 0.8, 0.9
    lib.add_tide_record(ctypes.byref(creek), ctypes.byref(header))
    lib.close_tide_db()


if __name__ == "__main__":
    make(sys.argv[1], sys.argv[2])
