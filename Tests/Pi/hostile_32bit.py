#!/usr/bin/env python3
"""Writes input whose numbers are past 32 bits, for the Pi's 32-bit build (armhf), where Swift's `Int` is 32 bits and a
conversion of a bigger number traps (qemu-check.sh replays both, on ARM and on x86, and compares):

    hostile.nmea     tag blocks whose group and line count are past 2^31 (refused), between good sentences;
    hostile.candump  an AIS class A position (PGN 129038, fast packets) from an MMSI of 0x90000000, which no vessel
                     has, beside one from a real MMSI.

    Tests/Pi/hostile_32bit.py FOLDER
"""
import os
import sys

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


def main(folder):
    with open(os.path.join(folder, "hostile.nmea"), "w") as f:
        f.write(nmea())
    with open(os.path.join(folder, "hostile.candump"), "w") as f:
        f.write(candump(0x90000000, 1700000000.0, 1) + candump(235012345, 1700000001.0, 2))


if __name__ == "__main__":
    main(sys.argv[1])
