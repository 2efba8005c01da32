#!/usr/bin/env python3
"""Compares two files of JSON lines (Signal K delta streams): the same lines, the same keys and strings in the same
order, and each number equal to the last digit it is printed with.

    json-close.py EXPECTED ACTUAL [FIRST_N | -LAST_N]

The NMEA replay is byte-identical on x86 and ARM; Signal K's numbers carry six decimals, and glibc's libm may round
a sine or an arc tangent's last bit differently on aarch64 than on x86-64, which moves a value sitting on a
rounding boundary by one unit in its sixth decimal (seen: a cross-track error of 76.906421 m on x86, 76.90642 on
arm64). One unit of the last printed decimal is allowed; anything more, or any other difference, fails and is printed.
"""
import json
import sys


def close(a, b, path):
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        if type(a) is not type(b):
            return f"{path}: {a!r} against {b!r}"
        if isinstance(a, dict):
            if list(a) != list(b):
                return f"{path}: keys {list(a)} against {list(b)}"
            for key in a:
                why = close(a[key], b[key], f"{path}.{key}")
                if why:
                    return why
            return None
        if isinstance(a, list):
            if len(a) != len(b):
                return f"{path}: {len(a)} items against {len(b)}"
            for i, (x, y) in enumerate(zip(a, b)):
                why = close(x, y, f"{path}[{i}]")
                if why:
                    return why
            return None
        return None if a == b else f"{path}: {a!r} against {b!r}"
    return None if abs(a - b) <= 1.0000001e-6 * max(1.0, abs(a) * 1e-9) else f"{path}: {a} against {b}"


expected = open(sys.argv[1]).read().splitlines()
actual = open(sys.argv[2]).read().splitlines()
if len(sys.argv) > 3:
    n = int(sys.argv[3])
    actual = actual[:n] if n > 0 else actual[n:]
if len(expected) != len(actual):
    sys.exit(f"{len(actual)} lines, expected {len(expected)}")
for number, (e, a) in enumerate(zip(expected, actual), 1):
    if e == a:
        continue
    why = close(json.loads(e), json.loads(a), "")
    if why:
        sys.exit(f"line {number}{why}")
