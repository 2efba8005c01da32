"""Telltale's AIS decoding against pyais (PyPI), message by message and field by field.

    ais_check.py BINARY FILE...

For each file, the lines a receiver would pass on (checksum right, every payload character inside the six-bit
armour, fill bits 0-5: what Telltale's codec checks; the others must be refused by Telltale, and are counted) are
decoded by pyais, fragments joined by its stream reader, and `telltale inspect --ais FILE` must give the same
messages in the same order with the same fields: positions within 1e-6 degree (pyais rounds to six places), speed,
course and heading to the tenth, "not available" values (91, 181, 102.3, 360, 511, second 60) as null, the rate of
turn as pyais rounds it, text without its padding and the spaces around it. Then the Signal K deltas `telltale
replay --signalk` makes of the project's fixture: one a station under its context (vessels., atons., sar.), each
valid against the specification's delta.json. Last, `telltale simulate --ship` puts a ship on a collision course
with the demo boat (closest 900 s into the voyage) and `telltale replay` must raise the collision alarm (ALR 161)
before it, no earlier than TCPA 10 minutes, and clear it once it has passed; one passing 3 km off raises nothing.
Prints 'ais-check: N passed, M failed'.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from signalk_schemas import SignalKSchemas  # noqa: E402
from support import ROOT, Checks  # noqa: E402

from pyais.constants import TurnRate  # noqa: E402
from pyais.stream import FileReaderStream  # noqa: E402

binary, files = sys.argv[1], sys.argv[2:]
checks = Checks("ais-check")
ARMOUR = set(chr(c) for c in list(range(48, 88)) + list(range(96, 120)))


def passes(line):
    """What Telltale's codec accepts of an AIS line."""
    if not line.startswith("!") or "*" not in line:
        return False
    body, _, checksum = line[1:].partition("*")
    value = 0
    for ch in body:
        value ^= ord(ch)
    fields = body.split(",")
    if checksum[:2].upper() != "%02X" % value or len(fields) != 7 or fields[0][2:] not in ("VDM", "VDO"):
        return False
    return all(c in ARMOUR for c in fields[5]) and fields[5] != "" and fields[6].isdigit() and int(fields[6]) <= 5


def value(x):
    return getattr(x, "value", x)


def expected(message):
    """pyais's fields as Telltale names and nulls them."""
    raw = message.asdict()
    d = {k: value(v) for k, v in raw.items()}
    t = d["msg_type"]
    out = {"msg_type": t, "repeat": d["repeat"], "mmsi": d["mmsi"]}
    if t in (1, 2, 3, 18, 19, 21):
        lat, lon = d.get("lat"), d.get("lon")
        out["lat"] = None if lat is None or lat == 91 or lon == 181 else lat
        out["lon"] = None if lon is None or lat == 91 or lon == 181 else lon
        if t != 21:
            out["speed"] = None if d["speed"] >= 102.25 else d["speed"]
            out["course"] = None if d["course"] >= 360 else d["course"]
            out["heading"] = None if d["heading"] == 511 else float(d["heading"])
        out["second"] = None if d["second"] >= 60 else d["second"]
        out["accuracy"] = bool(d["accuracy"])
        if t in (1, 2, 3):
            out["status"] = d["status"]
            # pyais gives an enum for "no indicator" (-128) and "turning, no rate" (+-127); Telltale null.
            out["turn"] = None if isinstance(raw["turn"], TurnRate) else d["turn"]
    if t in (5, 19, 24, 21):
        def text(key):
            v = (d.get(key) or "").rstrip(" @")
            return v or None
        if t == 21:
            out["shipname"] = text("full_name") or ((d.get("name") or "") + (d.get("name_ext") or "")).strip() or None
            out["aid_type"] = d["aid_type"]
            out["virtual_aid"] = bool(d["virtual_aid"])
        elif t != 24 or d["partno"] == 0:
            out["shipname"] = text("shipname")
        if t == 5:
            out["callsign"] = text("callsign")
            out["imo"] = d["imo"] or None
            out["draught"] = d["draught"] or None
            out["destination"] = text("destination")
            out["month"] = d["month"] or None
            out["day"] = d["day"] or None
            out["hour"] = None if d["hour"] >= 24 else d["hour"]
            out["minute"] = None if d["minute"] >= 60 else d["minute"]
        if t == 24:
            out["partno"] = d["partno"]
            if d["partno"] == 1:
                out["callsign"] = text("callsign")
        if t in (5, 19) or (t == 24 and d["partno"] == 1):
            out["ship_type"] = d["ship_type"] or None
        if t in (5, 19, 21) or (t == 24 and d["partno"] == 1 and d["mmsi"] // 10000000 != 98):
            for k in ("to_bow", "to_stern", "to_port", "to_starboard"):
                out[k] = d[k]
    return out


def same(key, want, got):
    if want is None or got is None:
        return want is None and got is None
    if key in ("lat", "lon"):
        return abs(want - got) <= 1.5e-6
    if key == "turn":
        return abs(round(got) - want) <= 1 and abs(got - want) <= 0.5 + 1e-9
    if isinstance(want, float) or isinstance(got, float):
        return abs(want - got) < 1e-6
    return want == got


for path in files:
    name = os.path.relpath(path)
    lines = open(path, encoding="ascii", errors="replace").read().splitlines()
    accepted = [line for line in lines if line.startswith("!") and passes(line)]
    with tempfile.NamedTemporaryFile("w", suffix=".nmea", delete=False) as f:
        f.write("".join(line + "\r\n" for line in accepted))
    reference = []
    for message in FileReaderStream(f.name):
        try:
            reference.append(expected(message.decode()))
        except Exception as error:  # a type pyais cannot read is left out of the comparison
            reference.append({"unreadable": str(error), "raw": message.raw.decode(errors="replace")})
    os.unlink(f.name)
    output = subprocess.run([binary, "inspect", "--ais", path], capture_output=True, text=True, timeout=120)
    ours = [json.loads(line) for line in output.stdout.splitlines() if line.strip()]
    refused = sum(1 for line in lines if line.startswith("!")) - len(accepted)
    checks(output.returncode == 0 and len(ours) == len(reference),
           f"{name}: {len(ours)} messages decoded, {len(reference)} by pyais ({refused} AIS lines refused)",
           output.stderr[-300:])
    golden = os.path.join(os.path.dirname(path), "expected.jsonl")
    if os.path.dirname(os.path.abspath(path)) == os.path.join(ROOT, "Fixtures", "ais"):
        checks(output.stdout == open(golden).read(), f"{name}: the output is expected.jsonl beside it, byte for byte")
    types = {}
    differences = []
    for index, (want, got) in enumerate(zip(reference, ours)):
        types[want.get("msg_type")] = types.get(want.get("msg_type"), 0) + 1
        for key, expected_value in want.items():
            if key in ("unreadable", "raw"):
                continue
            if not same(key, expected_value, got.get(key)):
                differences.append(f"message {index} type {want.get('msg_type')} {key}: pyais {expected_value!r}, "
                                   f"telltale {got.get(key)!r}")
    summary = ", ".join(f"type {t}: {n}" for t, n in sorted(types.items(), key=lambda kv: str(kv[0])))
    checks(not differences, f"{name}: every field the same as pyais ({summary})", "\n".join(differences[:10]))
    implausible = sum(m.get("implausible", 0) for m in ours)
    checks(implausible == 0, f"{name}: no field judged impossible ({implausible})")

# Signal K: the stations of the project's fixture as deltas, each in its own context, valid against the schema.
schemas = SignalKSchemas(os.path.join(ROOT, "Tests", "Interop", "signalk-schemas"))
with tempfile.TemporaryDirectory() as work:
    out = os.path.join(work, "deltas.jsonl")
    fixture = os.path.join(ROOT, "Fixtures", "ais", "targets.nmea")
    replay = subprocess.run([binary, "replay", "--fast", "--signalk", out, fixture], capture_output=True, text=True,
                            timeout=120)
    deltas = [json.loads(line) for line in open(out)] if os.path.exists(out) else []
stations = [d for d in deltas if not d["context"].startswith("vessels.urn:mrn:signalk")]
contexts = {d["context"] for d in stations}
want = {"vessels.urn:mrn:imo:mmsi:235009802", "atons.urn:mrn:imo:mmsi:992351234", "sar.urn:mrn:imo:mmsi:970012345",
        "vessels.urn:mrn:imo:mmsi:211234560"}
checks(replay.returncode == 0 and want <= contexts,
       f"Signal K: {len(contexts)} stations, each under its own context (vessels., atons., sar.)",
       replay.stderr[-300:] + str(sorted(contexts)))
invalid = [why for ok, why in (schemas.valid("delta.json", d) for d in stations) if not ok]
checks(stations and not invalid, f"Signal K: {len(stations)} AIS deltas valid against the specification's delta.json",
       "\n".join(invalid[:5]))
named = [v for d in stations for u in d["updates"] for v in u["values"] if v["path"] == "" and "name" in v["value"]]
checks({v["value"]["name"] for v in named} >= {"RED FALCON", "ZEPHYR", "SEA SPRITE", "NAB TOWER"},
       "Signal K: the names at the stations' roots, as signalk-server puts them", str(named[:4]))


# A simulated ship: the collision alarm raised before the closest approach and cleared after it.
def alarm_times(ship):
    with tempfile.TemporaryDirectory() as work:
        route = os.path.join(ROOT, "Fixtures", "demo-voyage", "route.gpx")
        made = subprocess.run([binary, "simulate", "--route", route, "--output", work, "--duration", "1500",
                               "--ship", ship], capture_output=True, text=True, timeout=300)
        replay = subprocess.run([binary, "replay", "--fast", os.path.join(work, "voyage.nmea")], capture_output=True,
                                text=True, timeout=300)
    start = 10 * 3600  # the simulator's voyages start at 10:00:00 UTC
    changes = []
    for line in replay.stdout.splitlines():
        fields = line.split(",")
        if fields[0].endswith("ALR") and len(fields) > 4 and fields[2] == "161":
            hhmmss = fields[1]
            at = int(hhmmss[0:2]) * 3600 + int(hhmmss[2:4]) * 60 + float(hhmmss[4:]) - start
            if not changes or changes[-1][1] != fields[3]:
                changes.append((at, fields[3]))
    return made.returncode == 0 and replay.returncode == 0, changes


ok, changes = alarm_times("900")
raised = [at for at, state in changes if state == "A"]
cleared = [at for at, state in changes if state == "V"]
checks(ok and raised and 900 - 610 <= raised[0] <= 900 - 60,
       f"a simulated ship on a collision course (closest at 900 s): ALR 161 raised at {raised[:1]} s", str(changes))
checks(ok and cleared and 900 <= cleared[-1] <= 960, f"and cleared once it has passed, at {cleared[-1:]} s",
       str(changes))
ok, changes = alarm_times("900:3000")
checks(ok and not changes, "a ship passing 3 km off raises nothing", str(changes))

checks.finish()
