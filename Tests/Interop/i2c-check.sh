#!/usr/bin/env bash
# The I2C transport through the real ioctl entry point: a preload shim (i2c-shim.c, built with the kernel's
# i2c-dev headers) answers I2C_RDWR on a plain file as an adapter with an ICM-20948 at 0x68. Checks:
#  1. `telltale imu` probes, configures (the shim logs the writes) and reads the chip; with the MacArthur HAT's axes
#     the boat's heel comes out at the shim's 10 degrees;
#  2. `telltale run` with that IMU sends XDR ROLL near 10 degrees;
#  3. `telltale calibrate level` there stores the chip's 10 degrees as the mounting tilt, and run then sends 0;
#  4. a wrong address is an error naming the bus and address, and nothing crashes.
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin i2c-check
BIN=.build/release/telltale
WORK=.build-interop/i2c
rm -rf "$WORK" && mkdir -p "$WORK"
gcc -shared -fPIC -O2 Tests/Interop/i2c-shim.c -o "$WORK/i2c-shim.so" -ldl -lm
: > "$WORK/i2c-fake"
BUS="$PWD/$WORK/i2c-fake"
cat > "$WORK/imu.toml" <<TOML
state_file = ""
[imu]
url = "i2c://$BUS?address=0x68&chip=icm20948"
axes = "x,-y,-z"
TOML
export FAKE_I2C_PATH="$BUS" FAKE_I2C_ADDRESS=0x68 FAKE_I2C_HEEL=10 FAKE_I2C_LOG="$PWD/$WORK/writes.log"
LD_PRELOAD="$PWD/$WORK/i2c-shim.so" "$BIN" imu --config "$WORK/imu.toml" --seconds 1 > "$WORK/imu.csv" 2> "$WORK/imu.log" || true
check "telltale imu probes, configures and reads the chip; heel comes out at the shim's 10 degrees" python3 - "$WORK" <<'PY'
import sys
work = sys.argv[1]
rows = [line.split(",") for line in open(f"{work}/imu.csv").read().split("\n")[1:] if line]
log = open(f"{work}/imu.log").read()
writes = open(f"{work}/writes.log").read().split("\n")
assert len(rows) >= 80, f"only {len(rows)} samples in 1 s at 102 Hz\n{log}"
heel = float(rows[-1][10])
az = float(rows[-1][3])
assert abs(heel - 10) < 0.1, f"heel {heel}"
assert abs(az + 9.80665 * 0.98481) < 0.01, f"az {az}"
for expected in ["W 68 06 80", "W 68 7f 20", "W 68 01 23", "W 68 14 23"]:
    assert expected in writes, f"{expected} not written: {writes}"
assert "ICM-20948 at 0x68" in log, log
print(f"i2c-check: telltale imu read {len(rows)} samples, heel {heel:.2f} deg; configuration writes as the datasheet")
PY
LD_PRELOAD="$PWD/$WORK/i2c-shim.so" "$BIN" run --config "$WORK/imu.toml" --output stdout: --duration 3 \
    > "$WORK/run.nmea" 2> "$WORK/run.log" || true
check "telltale run with that IMU sends XDR ROLL near 10 degrees" python3 - "$WORK" <<'PY'
import sys
work = sys.argv[1]
lines = [l for l in open(f"{work}/run.nmea", newline="").read().split("\r\n") if "ROLL" in l]
assert lines, open(f"{work}/run.log").read()
heel = float(lines[-1].split(",")[2])
assert abs(heel - 10) <= 0.1, lines[-1]
print(f"i2c-check: telltale run sent {len(lines)} XDR, last {lines[-1]}")
PY
# Calibrated level where the chip reads 10 degrees, the same IMU then reads 0 in `telltale run`.
LD_PRELOAD="$PWD/$WORK/i2c-shim.so" "$BIN" calibrate level --config "$WORK/imu.toml" --seconds 2 \
    --state "$WORK/state.toml" > "$WORK/calibrate.out" 2> "$WORK/calibrate.log" || true
sed "s|^state_file = \"\"|state_file = \"$PWD/$WORK/state.toml\"|" "$WORK/imu.toml" > "$WORK/calibrated.toml"
LD_PRELOAD="$PWD/$WORK/i2c-shim.so" "$BIN" run --config "$WORK/calibrated.toml" --output stdout: --duration 2 \
    > "$WORK/calibrated.nmea" 2> "$WORK/calibrated.log" || true
check "calibrate level stores the 10 degree tilt, and run then sends 0" python3 - "$WORK" <<'PY'
import sys
work = sys.argv[1]
said = open(f"{work}/calibrate.out").read()
assert said.startswith("mounting: heel 10.00"), said + open(f"{work}/calibrate.log").read()
lines = [l for l in open(f"{work}/calibrated.nmea", newline="").read().split("\r\n") if "ROLL" in l]
assert lines, open(f"{work}/calibrated.log").read()
heel = float(lines[-1].split(",")[2])
assert abs(heel) <= 0.1, lines[-1]
assert "level calibration applied" in open(f"{work}/calibrated.log").read()
print(f"i2c-check: calibrate level stored the 10 deg tilt; run then sends {lines[-1]}")
PY
set +e
LD_PRELOAD="$PWD/$WORK/i2c-shim.so" "$BIN" imu --imu "i2c://$BUS?address=0x69&chip=icm20948" --seconds 1 \
    > /dev/null 2> "$WORK/wrong.log"
status=$?
set -e
wrong_address() {
    grep -q "address 0x69: no acknowledge" "$WORK/wrong.log" || { cat "$WORK/wrong.log"; return 1; }
    [ "$status" -ne 0 ] && [ "$status" -lt 128 ] || { echo "a wrong address ended with status $status"; return 1; }
}
check "a wrong address is an error naming the bus and address, and nothing crashes" wrong_address
checks_end
