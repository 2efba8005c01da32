"""Broken GRIB files (weather_check.py, section 3): refused with their reason and never a crash of the import: text, a
GRIB cut short, bytes flipped, a field Telltale does not use, a grid it does not read."""
import json
import os
import random
import subprocess


def broken_files(DATE, DEBIAN_PYTHON, check, ncep, show, telltale, unix, work):
    """3. Broken files, each refused with its reason or imported with the impossible left out."""
    good = open(ncep, "rb").read()
    broken = {
        "text.grb": b"This is not a GRIB file at all.\n" * 50,
        "cut.grb": good[:len(good) // 3 + 17],
        "random.grb": bytes(random.getrandbits(8) for _ in range(20000)).replace(b"\x00\x00", b"GRIB"),
    }
    flipped = bytearray(good)
    for i in range(200, len(flipped), 97):
        flipped[i] ^= 0x5A
    broken["flipped.grb"] = bytes(flipped)
    temperature = os.path.join(work, "temperature.grib2")
    subprocess.run([DEBIAN_PYTHON, "-c", f"""import eccodes, numpy
h = eccodes.codes_grib_new_from_samples('regular_ll_sfc_grib2')
eccodes.codes_set(h, 'shortName', '2t')
eccodes.codes_set_values(h, numpy.full(16 * 31, 290.0))
eccodes.codes_write(h, open({temperature!r}, 'wb'))"""], check=True)
    lambert = os.path.join(work, "lambert.grib2")
    subprocess.run([DEBIAN_PYTHON, "-c", f"""import eccodes
h = eccodes.codes_grib_new_from_samples('lambert_bf_grib2')
eccodes.codes_set(h, 'shortName', '10u')
eccodes.codes_write(h, open({lambert!r}, 'wb'))"""], check=True)
    for name, data in broken.items():
        with open(os.path.join(work, name), "wb") as f:
            f.write(data)
    reasons = {}
    for name in list(broken) + ["temperature.grib2", "lambert.grib2"]:
        out = telltale("weather", "import", os.path.join(work, name), "--into", os.path.join(work, "broken-grids"))
        reasons[name] = (out.returncode, out.stderr.strip() or out.stdout.strip())
    check(all(code < 128 for code, _ in reasons.values()), "no broken file crashed the import",
          json.dumps(reasons)[:400])
    check(reasons["text.grb"][0] == 65 and "not a GRIB file" in reasons["text.grb"][1], "text: not a GRIB file",
          reasons["text.grb"][1])
    check(reasons["random.grb"][0] == 65, "random bytes with GRIB in them: refused", reasons["random.grb"][1])
    check(reasons["temperature.grib2"][0] == 65 and "nothing to use" in reasons["temperature.grib2"][1],
          "temperature only: nothing to use, and why", reasons["temperature.grib2"][1])
    check(reasons["lambert.grib2"][0] == 65 and "lambert" in reasons["lambert.grib2"][1],
          "a Lambert grid: refused, named", reasons["lambert.grib2"][1])
    # A GRIB cut short keeps the messages that are whole; flipped bytes give values ecCodes reads: either imported with
    # the impossible values left out, or refused; never a grid with a value out of its range.
    for name in ["cut.grb", "flipped.grb"]:
        code, said = reasons[name]
        grid = os.path.join(work, "broken-grids", name + ".ttwx")
        if code == 0:
            inside = show([grid], 50, -1, unix(DATE, 3))
            fine = "error" not in inside
            check(fine, f"{name}: imported what is whole ({said.splitlines()[0][:80]})", json.dumps(inside)[:200])
        else:
            check(code == 65, f"{name}: refused ({said[:80]})", said)
    return broken
