#!/usr/bin/env python3
"""Writes input whose numbers are past 32 bits, for the Pi's 32-bit build (armhf), where Swift's `Int` is 32 bits and a
conversion of a bigger number traps (qemu-check.sh replays both, on ARM and on x86, and compares):

    hostile.nmea     tag blocks whose group and line count are past 2^31 (refused), between good sentences;
    hostile.candump  an AIS class A position (PGN 129038, fast packets) from an MMSI of 0x90000000, which no vessel
                     has, beside one from a real MMSI;
    columns.ttwx     a forecast grid (the forecast voyage's, broken) whose columns are 0x90000000;
    length.ttwx      one of 4,000 × 4,000 points and 4,000 times, its header whole: its data's length past 2^31;
    uplink/          the uplink's queue on disk with a record whose length is 0x90000000 (CRC and all), after one
                     whole batch.

    Tests/Pi/hostile_32bit.py FOLDER
"""
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import checksum  # noqa: E402


def tagged(block, sentence):
    return f"\\{block}*{checksum(block)}\\{sentence}\n"


def nmea():
    hdt = "$GPHDT,274.07,T*03"
    lines = [tagged("c:1700000000", hdt)]
    for block in ["c:1700000001,g:1-2-99999999999", "c:1700000002,g:99999999999-1-1", "c:1700000003,n:2147483648",
                  "c:1700000004,n:999999999999999999"]:
        lines.append(tagged(block, hdt))
    lines.append(tagged("c:1700000005,g:1-1-2147483647", hdt))
    return "".join(lines)


def candump(mmsi, time, sequence):
    """One PGN 129038 as a fast packet from source 0x40: 28 bytes, the MMSI little-endian at bytes 1 to 4."""
    payload = bytes([0x01]) + mmsi.to_bytes(4, "little")
    payload += (int(-1.3 * 1e7) & 0xFFFFFFFF).to_bytes(4, "little") + int(50.8 * 1e7).to_bytes(4, "little")
    payload += bytes([0x00]) + (0).to_bytes(2, "little") + (0).to_bytes(2, "little") + bytes(14 - 5)
    payload = payload[:28].ljust(28, b"\xff")
    frames = [bytes([sequence << 5, len(payload)]) + payload[:6]]
    rest = payload[6:]
    counter = 1
    while rest:
        frames.append(bytes([sequence << 5 | counter]) + rest[:7].ljust(7, b"\xff"))
        rest = rest[7:]
        counter += 1
    can_id = (4 << 26) | (0x1F80E << 8) | 0x40
    return "".join(f"({time + i / 1000:.6f}) can0 {can_id:08X}#{frame.hex().upper()}\n" for i, frame in enumerate(frames))


def grids(folder):
    """Two broken copies of Fixtures/forecast-voyage/forecast.grib2.ttwx (its header: magic, version, header length,
    columns, rows, times, fields, label length at 0 to 22; south, west, steps, run time at 24 to 64)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "Fixtures", "forecast-voyage", "forecast.grib2.ttwx"), "rb") as f:
        grid = bytearray(f.read())
    columns = bytearray(grid)
    columns[8:12] = struct.pack("<I", 0x90000000)
    fields = grid[22 - 2]
    times = 4000
    offset = (64 + fields + 7) // 8 * 8
    header = bytearray(grid[:64 + fields]) + bytes(offset - 64 - fields)
    header[6:8] = struct.pack("<H", offset + 8 * times)
    header[8:21] = struct.pack("<IIIB", 4000, 4000, times, fields)
    header[21] = 0
    header[24:64] = struct.pack("<ddddq", 10.0, -20.0, 0.01, 0.01, 1782036000)
    header += b"".join(struct.pack("<q", 1782036000 + 3600 * i) for i in range(times))
    with open(os.path.join(folder, "columns.ttwx"), "wb") as f:
        f.write(columns)
    with open(os.path.join(folder, "length.ttwx"), "wb") as f:
        f.write(header)


def queue(folder):
    """A segment of the uplink's queue: one whole batch, then a record stating 0x90000000 bytes."""
    batch = b'{"boat":"hostile","seq":1,"samples":[]}'
    record = b"TQ" + struct.pack("<II", len(batch), zlib.crc32(batch)) + batch
    broken = b"TQ" + struct.pack("<II", 0x90000000, zlib.crc32(b"")) + b"{}"
    os.makedirs(os.path.join(folder, "uplink"), exist_ok=True)
    with open(os.path.join(folder, "uplink", "segment-000000000001.tq"), "wb") as f:
        f.write(record + broken)


def main(folder):
    with open(os.path.join(folder, "hostile.nmea"), "w") as f:
        f.write(nmea())
    with open(os.path.join(folder, "hostile.candump"), "w") as f:
        f.write(candump(0x90000000, 1700000000.0, 1) + candump(235012345, 1700000001.0, 2))
    grids(folder)
    queue(folder)


if __name__ == "__main__":
    main(sys.argv[1])
