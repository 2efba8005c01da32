#!/usr/bin/env python3
"""Writes targets.nmea beside this script: AIS messages of every type Telltale reads, made with pyais's encoder
(`.build-interop/venv/bin/python Fixtures/ais/make.py`), with a few broken lines among them. The Solent, made up.

Every message is a real encoding of the fields below; `Tests/Interop/ais-check.sh` decodes the file with Telltale and
with pyais and compares them field by field. The broken lines (a bad checksum, a character outside the armour, a
second fragment with no first, fill bits of 7) must be refused by both, or by Telltale and counted.
"""
import os

from pyais.encode import encode_dict


def vdm(fields, channel="A"):
    return encode_dict(fields, talker_id="AI", radio_channel=channel, sentence_type="VDM")


def checksummed(body):
    c = 0
    for ch in body:
        c ^= ord(ch)
    return "!%s*%02X" % (body, c)


lines = []
lines += vdm({"msg_type": 1, "mmsi": 235009802, "status": 0, "turn": 4, "speed": 12.3, "accuracy": 1,
              "lon": -1.2812, "lat": 50.7713, "course": 127.4, "heading": 126, "second": 12})
lines += vdm({"msg_type": 2, "mmsi": 232001234, "status": 8, "turn": -128, "speed": 6.1, "lon": -1.3102,
              "lat": 50.7851, "course": 290.0, "heading": 511, "second": 20}, "B")
lines += vdm({"msg_type": 3, "mmsi": 636012345, "status": 1, "turn": 0, "speed": 0.0, "lon": -1.2001,
              "lat": 50.7402, "course": 360, "heading": 44, "second": 59})
lines += vdm({"msg_type": 5, "mmsi": 235009802, "imo": 9321483, "callsign": "MXYZ7", "shipname": "RED FALCON",
              "ship_type": 60, "to_bow": 60, "to_stern": 33, "to_port": 8, "to_starboard": 9, "epfd": 1,
              "month": 11, "day": 25, "hour": 16, "minute": 30, "draught": 2.6, "destination": "EAST COWES"})
lines += vdm({"msg_type": 18, "mmsi": 235098765, "speed": 5.4, "accuracy": 1, "lon": -1.3333, "lat": 50.7601,
              "course": 45.5, "heading": 47, "second": 33}, "B")
lines += vdm({"msg_type": 19, "mmsi": 211234560, "speed": 6.3, "accuracy": 1, "lon": -1.2345, "lat": 50.7654,
              "course": 215.4, "heading": 213, "second": 31, "shipname": "ZEPHYR", "ship_type": 36, "to_bow": 8,
              "to_stern": 4, "to_port": 2, "to_starboard": 2, "epfd": 1}, "B")
lines += vdm({"msg_type": 21, "mmsi": 992351234, "aid_type": 9, "name": "NAB TOWER", "lon": -0.9535,
              "lat": 50.6680, "second": 40, "off_position": 0, "virtual_aid": 0, "to_bow": 5, "to_stern": 5,
              "to_port": 5, "to_starboard": 5})
lines += vdm({"msg_type": 21, "mmsi": 992359999, "aid_type": 26, "name": "BRAMBLE BANK EAST VI",
              "name_ext": "RTUAL CARDINAL", "lon": -1.2850, "lat": 50.7950, "second": 10, "virtual_aid": 1})
lines += vdm({"msg_type": 24, "mmsi": 235098765, "partno": 0, "shipname": "SEA SPRITE"}, "B")
lines += vdm({"msg_type": 24, "mmsi": 235098765, "partno": 1, "ship_type": 37, "vendorid": "ABC",
              "callsign": "MABC1", "to_bow": 7, "to_stern": 3, "to_port": 2, "to_starboard": 1}, "B")
lines += vdm({"msg_type": 1, "mmsi": 970012345, "status": 14, "turn": -128, "speed": 0.4, "lon": -1.1,
              "lat": 50.75, "course": 0, "heading": 511, "second": 5})
lines += vdm({"msg_type": 1, "mmsi": 972001234, "status": 14, "turn": -128, "speed": 1.0, "lon": -1.15,
              "lat": 50.72, "course": 90, "heading": 511, "second": 6})
lines += vdm({"msg_type": 1, "mmsi": 235000077, "status": 15, "turn": -128, "speed": 102.3, "lon": 181,
              "lat": 91, "course": 360, "heading": 511, "second": 60})
# Broken: a bad checksum, a character outside the armour, a second fragment alone, fill bits of 7.
good = lines[0]
lines.append(good[:-2] + ("00" if good[-2:] != "00" else "01"))
lines.append(checksummed("AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289x,0"))
lines.append(checksummed("AIVDM,2,2,7,A,88888888880,2"))
lines.append(checksummed("AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,7"))

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "targets.nmea"), "w", newline="") as f:
    for line in lines:
        f.write(line + "\r\n")
print(f"{len(lines)} lines")
