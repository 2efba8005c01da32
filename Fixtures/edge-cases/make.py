#!/usr/bin/env python3
"""Writes the hand-made edge-case logs of this folder (see README.md). Run from this folder: python3 make.py"""
from functools import reduce


def cs(body, start="$"):
    return f"{start}{body}*{reduce(lambda a, c: a ^ ord(c), body, 0):02X}"


# noise.nmea: every anomaly of REFERENCE.md section 1, with known good lines between.
noise = [
    cs("GPRMC,120000.00,A,5046.8000,N,00118.0000,W,5.0,90.0,221126,1.5,W,A"),
    cs("WIMWV,45.0,R,12.0,N,A"),
    cs("VWVHW,,T,,M,5.00,N,9.26,K"),
    cs("HCHDM,093.8,M").lower().replace("hchdm", "HCHDM").replace(",m*", ",M*"),  # lower-case checksum hex
    cs("HCHDM,093.8,M") + "<0x0D>",  # text after the checksum
    cs("GPRMB,A,0.00,R,003,004,4917.24,N,12309.57,W,001.3,052.5,000.5,V")[1:],  # no $ (no_start)
    cs("IIVHW,,,294,M,01.4,N,,"),  # unit letters left out
    cs("IIMWV,-1.-3,R,10,N,A"),  # -1.-3 (invalid_field)
    cs("GPRWV,031,R,10.5,N,A"),  # corrupted address, checksum-valid: passed through
    "$HCHDM,09\x003.8,M*2B",  # NUL (invalid_byte)
    "$HCHDM,09\xe93.8,M*2B",  # 8-bit (invalid_byte)
    "$WIMWV,45.0,R,12.$WIMWV,45.0,R,12.0,N,A*" + cs("WIMWV,45.0,R,12.0,N,A")[-2:],  # cut, then whole
    cs("HCHDM,093.9,M")[:-2] + "00",  # wrong checksum
    "$HCHDM,093.8,M",  # no checksum
    cs("02MWV,327.6,R,1.89,N"),  # numeric talker
    # over 82 bytes (B&G style): passed on shortened
    cs("IIXDR,C,12.5,C,AIRTEMP,A,-1.0,D,HEEL,A,2.9,D,TRIM,P,1.013,B,BARO,A,-3.9,D,RUDDER,C,18.0,C,WATERTEMP"),
    cs("IIXDR,C,,C,AIRTEMP,,A,-1.0,D,HEEL,A,2.9,D,TRIM"),  # one field too many
    cs("GPRMC,120001.00,A,5046.8000,N,00117.9990,W,5.0,90.0,221126,1.5,W,A"),
]
open("noise.nmea", "wb").write(("\r\n".join(noise) + "\r\n").encode("latin1"))

# midnight.nmea: a log across midnight UTC, 23:59:58 to 00:00:03.
midnight = []
for i, t in enumerate(["235958", "235959", "000000", "000001", "000002", "000003"]):
    date = "221126" if t.startswith("23") else "231126"
    midnight += [cs(f"GPRMC,{t}.00,A,5046.8000,N,00118.{i:04d},W,5.0,90.0,{date},1.5,W,A"),
                 cs("WIMWV,45.0,R,12.0,N,A"), cs("VWVHW,,T,,M,5.00,N,9.26,K"), cs("HEHDT,90.0,T")]
open("midnight.nmea", "w").write("\r\n".join(midnight) + "\r\n")

# stale-wind.nmea: the wind instrument stops for ten seconds (12:00:05 to 12:00:15) and comes back.
stale = []
for s in range(20):
    stale += [cs(f"GPRMC,1200{s:02d}.00,A,5046.8000,N,00118.0000,W,5.0,90.0,221126,1.5,W,A"),
              cs("VWVHW,,T,,M,5.00,N,9.26,K"), cs("HEHDT,90.0,T")]
    if not 5 <= s < 15:
        stale.append(cs("WIMWV,45.0,R,12.0,N,A"))
open("stale-wind.nmea", "w").write("\r\n".join(stale) + "\r\n")

# gps-a.nmea and gps-b.nmea: two GPS receivers; A stops after 12:00:09, so B takes over.
a = [cs(f"GPRMC,1200{s:02d}.00,A,5046.8000,N,00118.0000,W,5.0,90.0,221126,1.5,W,A") for s in range(10)]
b = [cs(f"GNRMC,1200{s:02d}.50,A,5046.9000,N,00118.0000,W,5.0,90.0,221126,1.5,W,A") for s in range(30)]
open("gps-a.nmea", "w").write("\r\n".join(a) + "\r\n")
open("gps-b.nmea", "w").write("\r\n".join(b) + "\r\n")
