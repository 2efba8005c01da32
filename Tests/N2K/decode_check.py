"""Telltale's NMEA 2000 decoding held against an independent decoder, field by field.

    decode_check.py TELLTALE FILE...

For each recording (candump -l, an old candump, canboat's plain and fast formats), `telltale n2k --decode FILE` prints
every message of the PGNs Telltale reads, its fields under canboat's ids. PyPI's `nmea2000` (its own Python decoder
over canboat's database, with its own fast-packet assembly) decodes the same lines; an old candump's lines, which it
does not read, are given to it rewritten as candump -l (python-can's reader makes the frames: an independent reading
of that format too). The messages are paired in order per PGN and source; each field Telltale gives is compared with
the reference's: numbers within a millionth (relative) of each other, lookups by their number, texts without their
padding, "not available" as null on both sides. A file whose name ends in `.expected.jsonl` beside a recording holds
the reference's decode made when the fixture was made: it must still be what `nmea2000` says, and Telltale too.

Prints `n2k-decode-check: N passed, M failed`.
"""
import collections
import datetime
import json
import os
import re
import subprocess
import sys

from nmea2000.decoder import NMEA2000Decoder

PGNS = {127250, 127251, 127257, 127258, 128259, 128267, 128275, 129025, 129026, 129029, 129283, 129284, 129285,
        129291, 130306, 130310, 130311, 130312, 130313, 130314, 126992, 127245, 60928, 59904, 59392, 126993, 126996,
        126998, 126464, 129038, 129039, 129040, 129041, 129794, 129809, 129810, 127237, 65379, 65360, 65345}

passed = 0
failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"  ok   {what}")
    else:
        failed += 1
        print(f"  FAIL {what}" + (f": {detail}" if detail else ""))


OLD = re.compile(r"^\s*<0x([0-9a-fA-F]+)>\s+\[(\d)\]((?:\s+[0-9a-fA-F]{2})*)\s*$")
# canboat's older logs write the time `2016-02-28-19:57:01`, which the reference does not read: given as ISO.
DASHED = re.compile(r"^(\d{4}-\d{2}-\d{2})-(\d{2}:\d{2}:\d{2})(\.\d+)?,")


def reference_lines(path):
    """The file's lines as the reference reads them: an old candump's rewritten as candump -l."""
    for number, line in enumerate(open(path, errors="replace")):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        line = DASHED.sub(lambda m: f"{m.group(1)}T{m.group(2)}{m.group(3) or '.000'}Z,", line)
        match = OLD.match(line)
        if match:
            data = "".join(match.group(3).split())
            line = f"({number / 1000:.6f}) can0 {int(match.group(1), 16):08X}#{data.upper()}"
        yield line


LOOKUPS = ("LOOKUP", "BITLOOKUP", "INDIRECT_LOOKUP", "FIELDTYPE_LOOKUP")


def field_value(field):
    """A field in canboat's units: a lookup as its number (marked, see `close`), a date as days since 1970, a time
    as seconds since midnight."""
    kind = getattr(field.type, "name", str(field.type))
    if kind in LOOKUPS:
        return Lookup(field.raw_value) if field.raw_value is not None else None
    value = field.value
    if isinstance(value, (datetime.date, datetime.time)) and isinstance(field.raw_value, (int, float)):
        return field.raw_value  # its days or seconds, to the resolution the field has
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return (value - datetime.date(1970, 1, 1)).days
    if isinstance(value, datetime.time):
        return value.hour * 3600 + value.minute * 60 + value.second + value.microsecond / 1e6
    return value


class Lookup(int):
    """A lookup's number: all ones (3 for 2 bits, 7 for 3...) is canboat's "unknown", Telltale's null."""


def reference(path):
    decoder = NMEA2000Decoder()
    out = collections.defaultdict(list)
    for line in reference_lines(path):
        try:
            message = decoder.decode(line)
        except Exception:  # a line it cannot read is Telltale's to count, not a reference
            continue
        if message is None or message.PGN not in PGNS:
            continue
        fields = {}
        for field in message.fields:
            if field.id == "##list##":
                # A repeated set (a route's waypoints, a PGN list): `list.<i>.<id>`, as Telltale names them.
                for index, item in enumerate(field.value or []):
                    for name, inner in item.items():
                        fields[f"list.{index}.{name}"] = [field_value(inner)]
                continue
            fields.setdefault(field.id, []).append(field_value(field))
        out[(message.PGN, message.source)].append(fields)
    return out


def telltale(binary, path):
    run = subprocess.run([binary, "n2k", "--decode", path], capture_output=True, text=True, timeout=300)
    out = collections.defaultdict(list)
    for line in run.stdout.splitlines():
        item = json.loads(line)
        if item["pgn"] in PGNS:
            out[(item["pgn"], item["src"])].append(item["fields"])
    return out, run.returncode


def close(ours, theirs):
    if ours is None and isinstance(theirs, Lookup):
        return (theirs + 1) & theirs == 0 and theirs > 0
    if ours is None and theirs is None:
        return True
    if isinstance(ours, str) or isinstance(theirs, str):
        # An empty text is a text not given: canboat's decoders say null, Telltale an empty string.
        ours, theirs = ours or "", theirs or ""
        clean = lambda s: str(s).rstrip(" @\x00\xff")
        return clean(ours) == clean(theirs)
    if isinstance(theirs, bool):
        theirs = int(theirs)
    try:
        a, b = float(ours), float(theirs)
    except (TypeError, ValueError):
        return False
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


def compare(path, binary):
    ours, status = telltale(binary, path)
    check(status == 0, f"{os.path.basename(path)}: telltale n2k --decode reads it")
    theirs = reference(path)
    keys = sorted(set(ours) | set(theirs))
    messages = fields = 0
    problems = []
    for key in keys:
        a, b = ours.get(key, []), theirs.get(key, [])
        if len(a) != len(b):
            problems.append(f"PGN {key[0]} from {key[1]}: {len(a)} messages, the reference {len(b)}")
        for mine, ref in zip(a, b):
            messages += 1
            for name, value in mine.items():
                if True:
                    values = ref.get(name)
                    if values is None:
                        problems.append(f"PGN {key[0]}: no field {name} in the reference")
                        continue
                    other = values[0]
                    if isinstance(other, (bytes, bytearray)) and isinstance(value, (int, float)) and len(other) <= 8:
                        # A binary field Telltale reads as a number (Raymarine's pilot sub-mode): its bytes as the
                        # little-endian number they are.
                        other = int.from_bytes(other, "little")
                fields += 1
                if not close(value, other):
                    problems.append(f"PGN {key[0]} from {key[1]} {name}: {value!r}, the reference {other!r}")
    pgns = sorted({k[0] for k in keys})
    check(not problems and messages > 0,
          f"{os.path.basename(path)}: {messages} messages, {fields} fields equal to nmea2000's "
          f"(PGNs {', '.join(map(str, pgns))})", "; ".join(problems[:8]) + (f" (+{len(problems) - 8})" if len(problems) > 8 else ""))
    expected = path + ".expected.jsonl" if not path.endswith(".candump") else path[:-8] + ".expected.jsonl"
    if os.path.exists(expected):
        recorded = collections.defaultdict(list)
        for line in open(expected):
            item = json.loads(line)
            recorded[(item["pgn"], item["src"])].append(item["fields"])
        same = all(len(recorded[k]) == len(theirs.get(k, [])) for k in recorded) and all(
            all(close(v[0] if isinstance(v, list) and v else v, (t.get(n) or [None])[0]) for n, v in r.items())
            for k in recorded for r, t in zip(recorded[k], theirs.get(k, [])))
        check(same, f"{os.path.basename(expected)}: the decode recorded beside the fixture is still nmea2000's")


def main():
    binary, files = sys.argv[1], sys.argv[2:]
    for path in files:
        compare(path, binary)
    print(f"n2k-decode-check: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
