"""Debian's libtcd (libtcd0) through ctypes: the harmonics file as XTide's own library reads it, for the tide check's
independent predictor (tide_reference.py). Nothing here shares code with Telltale's reader (Marine/Tides).

    db = TCD("/usr/share/xtide/harmonics-dwf-20191229-free.tcd")
    rec = db.record(1756)      # a dict: name, type, lat, lon, units, constituents (name, speed, amplitude, epoch), ...
"""
import ctypes

ONELINER, MONOLOGUE, MAX_CONSTITUENTS = 90, 10000, 255
NULL_SLACK = 0xA00


class Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_char * ONELINER), ("major_rev", ctypes.c_uint32),
                ("minor_rev", ctypes.c_uint32), ("last_modified", ctypes.c_char * ONELINER),
                ("number_of_records", ctypes.c_uint32), ("start_year", ctypes.c_int32),
                ("number_of_years", ctypes.c_uint32), ("constituents", ctypes.c_uint32),
                ("level_unit_types", ctypes.c_uint32), ("dir_unit_types", ctypes.c_uint32),
                ("restriction_types", ctypes.c_uint32), ("datum_types", ctypes.c_uint32),
                ("countries", ctypes.c_uint32), ("tzfiles", ctypes.c_uint32), ("legaleses", ctypes.c_uint32),
                ("pedigree_types", ctypes.c_uint32)]


class StationHeader(ctypes.Structure):
    _fields_ = [("record_number", ctypes.c_int32), ("record_size", ctypes.c_uint32),
                ("record_type", ctypes.c_uint8), ("latitude", ctypes.c_double), ("longitude", ctypes.c_double),
                ("reference_station", ctypes.c_int32), ("tzfile", ctypes.c_int16),
                ("name", ctypes.c_char * ONELINER)]


class Record(ctypes.Structure):
    _fields_ = [("header", StationHeader), ("country", ctypes.c_int16), ("source", ctypes.c_char * ONELINER),
                ("restriction", ctypes.c_uint8), ("comments", ctypes.c_char * MONOLOGUE),
                ("notes", ctypes.c_char * MONOLOGUE), ("legalese", ctypes.c_uint8),
                ("station_id_context", ctypes.c_char * ONELINER), ("station_id", ctypes.c_char * ONELINER),
                ("date_imported", ctypes.c_uint32), ("xfields", ctypes.c_char * MONOLOGUE),
                ("direction_units", ctypes.c_uint8), ("min_direction", ctypes.c_int32),
                ("max_direction", ctypes.c_int32), ("level_units", ctypes.c_uint8),
                ("datum_offset", ctypes.c_float), ("datum", ctypes.c_int16), ("zone_offset", ctypes.c_int32),
                ("expiration_date", ctypes.c_uint32), ("months_on_station", ctypes.c_uint16),
                ("last_date_on_station", ctypes.c_uint32), ("confidence", ctypes.c_uint8),
                ("amplitude", ctypes.c_float * MAX_CONSTITUENTS), ("epoch", ctypes.c_float * MAX_CONSTITUENTS),
                ("min_time_add", ctypes.c_int32), ("min_level_add", ctypes.c_float),
                ("min_level_multiply", ctypes.c_float), ("max_time_add", ctypes.c_int32),
                ("max_level_add", ctypes.c_float), ("max_level_multiply", ctypes.c_float),
                ("flood_begins", ctypes.c_int32), ("ebb_begins", ctypes.c_int32)]


def _text(raw):
    return raw.decode("latin-1")


def hours(hhmm):
    """libtcd's times are ±HHMM: hours."""
    sign = -1 if hhmm < 0 else 1
    return sign * (abs(hhmm) // 100 + (abs(hhmm) % 100) / 60)


class TCD:
    def __init__(self, path, library="libtcd.so.0"):
        self.lib = ctypes.CDLL(library)
        lib = self.lib
        for name in ("get_level_units", "get_dir_units", "get_datum", "get_constituent", "get_station",
                     "get_country", "get_tzfile"):
            getattr(lib, name).restype = ctypes.c_char_p
            getattr(lib, name).argtypes = [ctypes.c_int32]
        lib.get_speed.restype = ctypes.c_double
        lib.get_equilibrium.restype = ctypes.c_float
        lib.get_node_factor.restype = ctypes.c_float
        lib.get_tide_db_header.restype = Header
        lib.read_tide_record.argtypes = [ctypes.c_int32, ctypes.POINTER(Record)]
        lib.create_tide_db.restype = ctypes.c_uint8
        if not lib.open_tide_db(path.encode()):
            raise OSError(f"libtcd cannot open {path}")
        self.header = lib.get_tide_db_header()

    @property
    def count(self):
        return self.header.number_of_records

    def speed(self, index):
        return self.lib.get_speed(index)

    def equilibrium(self, index, year):
        return self.lib.get_equilibrium(index, year - self.header.start_year)

    def node_factor(self, index, year):
        return self.lib.get_node_factor(index, year - self.header.start_year)

    def constituent(self, index):
        return _text(self.lib.get_constituent(index))

    def record(self, number):
        rec = Record()
        if self.lib.read_tide_record(number, ctypes.byref(rec)) != number:
            raise IndexError(number)
        h = rec.header
        out = {"number": number, "name": _text(h.name), "type": h.record_type, "lat": h.latitude,
               "lon": h.longitude, "reference": h.reference_station, "tzfile": _text(self.lib.get_tzfile(h.tzfile)),
               "units": _text(self.lib.get_level_units(rec.level_units)),
               "direction_units": _text(self.lib.get_dir_units(rec.direction_units)),
               "min_direction": rec.min_direction, "max_direction": rec.max_direction,
               "id": _text(rec.station_id), "country": _text(self.lib.get_country(rec.country))}
        if h.record_type == 1:
            out.update(datum_offset=rec.datum_offset, datum=_text(self.lib.get_datum(rec.datum)),
                       zone=rec.zone_offset,
                       constituents=[(i, rec.amplitude[i], rec.epoch[i])
                                     for i in range(self.header.constituents) if rec.amplitude[i] > 0])
        else:
            out.update(min_time_add=rec.min_time_add, min_level_add=rec.min_level_add,
                       min_level_multiply=rec.min_level_multiply or 1.0, max_time_add=rec.max_time_add,
                       max_level_add=rec.max_level_add, max_level_multiply=rec.max_level_multiply or 1.0,
                       flood_begins=None if rec.flood_begins == NULL_SLACK else rec.flood_begins,
                       ebb_begins=None if rec.ebb_begins == NULL_SLACK else rec.ebb_begins)
        return out

    def find(self, name):
        """The records whose names hold `name`, any case (libtcd's own search)."""
        self.lib.search_station.argtypes = [ctypes.c_char_p]
        found = []
        while (number := self.lib.search_station(name.encode())) >= 0:
            found.append(number)
        return found
