#!/usr/bin/env bash
# The Pi builds, run here under qemu-user (`make pi` builds them first):
#  1. `telltale --version` and `check-config Boards/bench.toml` answer as the x86 build does (and exit 3 for files
#     it goes without);
#  2. the demo voyage replayed by the ARM binary is byte-identical to the golden file the x86 build made
#     (Fixtures/demo-voyage/expected.nmea: route, IMU, alarms, AIS, the anchor watch; every number computed on ARM);
#  3. `telltale imu` on a recorded IMU trace prints the same samples, heel and pitch as x86; `inspect --json` gives
#     the same report; `record` writes a log; `ports` answers; the autopilot desk's commands on the Embedded build
#     (Tests/Pi/EmbeddedDesk);
#  4. the replay's Signal K delta stream is the golden one (each number to its last printed digit), and `telltale run` serves Signal K over HTTP;
#  5. the forecast voyage (no anemometer, forecast wind from its GRIB's grid) replayed byte-identical to its golden
#     file, and `weather import` of a GRIB1 and a GRIB2 (ecCodes for the target under qemu) giving the x86 grids;
#  6. the fleet uplink: `telltale run` on ARM sends the voyage to Debian's mosquitto through the target's
#     libmosquitto, and the shore's `telltale fleet` (x86: the Pi's build has no shore) shows the boat
#     (Tests/Pi/uplink-smoke.sh);
#  7. `telltale run` on ARM serves the demo voyage over TCP, the real gpsd reads it and reports a 3D fix, and
#     SIGTERM ends it with status 0 (Tests/Interop/gpsd-check.sh with the ARM binary).
#   Tests/Pi/qemu-check.sh [arm64] [armhf]
#   Each architecture is checked in a process of its own, both at once (qemu-user emulates on one core each), their
#   words printed after, one count for both.
set -uo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
[ $# -gt 0 ] || set -- arm64 armhf
if [ $# -gt 1 ]; then
    LOGS=$(mktemp -d)
    for ARCH in "$@"; do CHECK_NAME="pi-check-$ARCH" "$0" "$ARCH" >"$LOGS/$ARCH.log" 2>&1 & done
    wait
    passed=0; failed=0
    for ARCH in "$@"; do
        cat "$LOGS/$ARCH.log"
        n=$(sed -n "s/^pi-check-$ARCH: \([0-9]*\) passed, \([0-9]*\) failed/\1 \2/p" "$LOGS/$ARCH.log" | tail -n 1)
        if [ -n "$n" ]; then passed=$((passed + ${n%% *})); failed=$((failed + ${n##* })); else failed=$((failed + 1)); fi
    done
    rm -rf "$LOGS"
    echo "pi-check: $passed passed, $failed failed"
    [ "$failed" = 0 ]
    exit
fi
checks_begin "${CHECK_NAME:-pi-check}"
X86=.build/release/TelltalePi
for ARCH in "$@"; do
    case "$ARCH" in
    arm64) QEMU=qemu-aarch64; GNU=aarch64-linux-gnu ;;
    armhf) QEMU=qemu-arm; GNU=arm-linux-gnueabihf ;;
    esac
    BIN=.build-pi/$ARCH/telltale
    SYSROOT=$PWD/.build-pi/$ARCH/sysroot
    RUNNER="$QEMU -L /usr/$GNU -E LD_LIBRARY_PATH=$SYSROOT/usr/lib/$GNU:$SYSROOT/lib/$GNU"
    if [ ! -x "$BIN" ]; then
        fail "$ARCH: $BIN is missing (make pi)"; continue
    fi
    "$GNU-readelf" -h "$BIN" | grep -q "Machine: *$( [ "$ARCH" = arm64 ] && echo AArch64 || echo ARM)" || {
        fail "$ARCH: $BIN is not an $ARCH executable"; continue; }
    check "$ARCH version" bash -c "[ \"\$($RUNNER $BIN --version)\" = \"\$($X86 --version)\" ]"
    check "$ARCH check-config" bash -c \
        "[ \"\$($RUNNER $BIN check-config Boards/bench.toml)\" = \"\$($X86 check-config Boards/bench.toml)\" ]"
    check "$ARCH check-config refuses a bad file" bash -c \
        "! $RUNNER $BIN check-config Fixtures/demo-voyage/route.gpx >/dev/null 2>&1"
    # The image's telltale-data reads the status: 3 keeps the sailor's configuration (the gateway runs without them).
    WITHOUT=$(mktemp --suffix=.toml)
    printf 'route = "/nonexistent/route.gpx"\npolar = "/nonexistent/polar.csv"\n' >"$WITHOUT"
    check "$ARCH check-config exits 3 for a route and a polar it cannot read" bash -c \
        "$RUNNER $BIN check-config $WITHOUT >/dev/null 2>&1; [ \$? = 3 ]"
    rm -f "$WITHOUT"
    # One replay as make.sh makes the goldens (the race timer with the log, the anchor down 1440 s in): the NMEA out
    # and the Signal K delta stream, its first 300 deltas and its last 100.
    OUT=$(mktemp)
    DELTAS=$(mktemp)
    $RUNNER "$BIN" replay --fast --tag-time --computed-only --config Fixtures/demo-voyage/replay.toml --race-start 0 \
        --anchor-drop 1440 --imu Fixtures/demo-voyage/imu.csv --signalk "$DELTAS" Fixtures/demo-voyage/voyage.nmea \
        >"$OUT" 2>/dev/null
    check "$ARCH replay of the demo voyage is byte-identical to expected.nmea ($(wc -l <"$OUT") lines)" \
        cmp -s "$OUT" Fixtures/demo-voyage/expected.nmea
    # A recorded NMEA 2000 bus through the same converter: the same 0183 as on the desktop, byte for byte.
    $RUNNER "$BIN" replay --fast --tag-time Fixtures/n2k/telltale-demo.candump >"$OUT" 2>/dev/null
    check "$ARCH replay of a recorded NMEA 2000 bus is byte-identical to telltale-demo.expected.nmea ($(wc -l <"$OUT") lines)" \
        cmp -s "$OUT" Fixtures/n2k/telltale-demo.expected.nmea
    # Numbers past 32 bits (tag blocks' groups and counts, an MMSI of 0x90000000 on the bus) trap Swift's `Int` on
    # armhf unless refused as they are read: the same output as the desktop's, the good sentences and one vessel.
    HOSTILE=$(mktemp -d)
    /usr/bin/python3 Tests/Pi/hostile_32bit.py "$HOSTILE"
    for input in hostile.nmea hostile.candump; do
        $RUNNER "$BIN" replay --fast "$HOSTILE/$input" >"$HOSTILE/$ARCH.$input" 2>/dev/null
        $X86 replay --fast "$HOSTILE/$input" >"$HOSTILE/x86.$input" 2>/dev/null
        check "$ARCH replay of $input (numbers past 32 bits refused) is the desktop's" \
            cmp -s "$HOSTILE/$ARCH.$input" "$HOSTILE/x86.$input"
    done
    check "$ARCH: of the hostile input, the two good headings and the one real vessel came through" bash -c \
        "[ \$(grep -c GPHDT $HOSTILE/$ARCH.hostile.nmea) = 2 ] && [ \$(grep -c AIVDM $HOSTILE/$ARCH.hostile.candump) = 1 ]"
    # A time past 2038 (2^31 seconds), as a phone's history query or `weather show --time` gives it.
    $RUNNER "$BIN" weather show Fixtures/forecast-voyage/forecast.grib2.ttwx --at 50.8,-1.3 --time 2040-01-01T00:00Z \
        >"$HOSTILE/$ARCH.2040" 2>&1
    $X86 weather show Fixtures/forecast-voyage/forecast.grib2.ttwx --at 50.8,-1.3 --time 2040-01-01T00:00Z \
        >"$HOSTILE/x86.2040" 2>&1
    check "$ARCH weather show at a time past 2038 answers as the desktop: $(tail -n 1 "$HOSTILE/$ARCH.2040")" \
        bash -c "cmp -s $HOSTILE/$ARCH.2040 $HOSTILE/x86.2040 && grep -q 'no forecast covers' $HOSTILE/$ARCH.2040"
    # Forecast grids broken past 2^31 (columns of 0x90000000; 4,000 × 4,000 points at 4,000 times): refused as on
    # the desktop, not a trap.
    for grid in columns length; do
        $RUNNER "$BIN" weather show "$HOSTILE/$grid.ttwx" --at 50.8,-1.3 >"$HOSTILE/$ARCH.$grid" 2>&1
        $X86 weather show "$HOSTILE/$grid.ttwx" --at 50.8,-1.3 >"$HOSTILE/x86.$grid" 2>&1
        check "$ARCH weather show of a grid broken past 2^31 ($grid) is refused as on the desktop" \
            bash -c "cmp -s $HOSTILE/$ARCH.$grid $HOSTILE/x86.$grid && grep -q 'forecast grid' $HOSTILE/$ARCH.$grid"
    done
    rm -rf "$HOSTILE"
    # The deltas' numbers carry six decimals: each to its last digit (Tests/Pi/json-close.py says why not bytes).
    check "$ARCH Signal K delta stream of the replay starts as expected-signalk.jsonl (to the last digit)" \
        Tests/Pi/json-close.py Fixtures/demo-voyage/expected-signalk.jsonl "$DELTAS" 300
    check "$ARCH Signal K delta stream ends as expected-signalk-end.jsonl (AIS, the anchor; to the last digit)" \
        Tests/Pi/json-close.py Fixtures/demo-voyage/expected-signalk-end.jsonl "$DELTAS" -100
    rm -f "$OUT" "$DELTAS"
    OUT=$(mktemp)
    $RUNNER "$BIN" replay --fast --tag-time --computed-only --config Fixtures/forecast-voyage/replay.toml \
        --forecast Fixtures/forecast-voyage/forecast.grib2.ttwx Fixtures/forecast-voyage/voyage.nmea >"$OUT" 2>/dev/null
    check "$ARCH replay of the forecast voyage (forecast wind while no anemometer) is byte-identical to its golden" \
        cmp -s "$OUT" Fixtures/forecast-voyage/expected.nmea
    rm -f "$OUT"
    GRIDS=$(mktemp -d)
    if /usr/bin/python3 -c "import eccodes" 2>/dev/null; then
        /usr/bin/python3 -c "import sys; sys.path.insert(0, 'Tests/Interop'); import weather_grib as w; \
w.grib1_ncep('$GRIDS/ncep.grb', 20261125, 0, range(0, 25, 3)); w.grib2_ecmwf('$GRIDS/ecmwf.grib2', 20261125, 6, range(0, 25, 3))"
        $X86 weather import "$GRIDS/ncep.grb" "$GRIDS/ecmwf.grib2" --into "$GRIDS/x86" >/dev/null 2>&1
        $RUNNER "$BIN" weather import "$GRIDS/ncep.grb" "$GRIDS/ecmwf.grib2" --into "$GRIDS/$ARCH" >/dev/null 2>&1
        for grid in ncep.grb.ttwx ecmwf.grib2.ttwx; do
            check "$ARCH weather import (ecCodes on $ARCH) gives the x86 grid: $grid" \
                cmp -s "$GRIDS/x86/$grid" "$GRIDS/$ARCH/$grid"
        done
    else
        fail "$ARCH weather import: Debian's python3-eccodes is missing to write the GRIBs (make test installs it)"
    fi
    rm -rf "$GRIDS"
    check "$ARCH run serves Signal K: the model over HTTP, PUT from loopback" Tests/Pi/signalk-smoke.sh "$RUNNER" "$BIN"
    check "$ARCH the largest sizes (keep_mb, rotate_size_mb, queue_mb; an upload's offset of 2^63 - 1): as the desktop, running" \
        Tests/Pi/sizes-smoke.sh "$RUNNER" "$BIN" "$X86"
    if [ "$ARCH" = armhf ]; then
        # Hostile input on the running 32-bit gateway, where an `Int` past 2^31 traps: the desktop's live-fuzz-check.
        # Its own count stays in its file (this check is counted once, here); its lines are shown when it fails.
        FUZZED=$(mktemp)
        check "armhf live-fuzz-check: mangled 0183 and NMEA 2000 for a minute, alive, its output true" bash -c \
            "RUNNER='$RUNNER' python3 Tests/Interop/live_fuzz_check.py $BIN >$FUZZED 2>&1 \
             && grep -q '^live-fuzz-check: [0-9]* passed, 0 failed' $FUZZED || { grep -v '^  ok' $FUZZED | tail -n 8; false; }"
        rm -f "$FUZZED"
    fi
    check "$ARCH uplink: run sends the voyage to mosquitto through the target's libmosquitto, the shore shows the boat" \
        Tests/Pi/uplink-smoke.sh "$RUNNER" "$BIN" .build/release/telltale
    check "$ARCH has no shore in it: fleet is the desktop's command" bash -c \
        "out=\$($RUNNER $BIN fleet 2>&1); [ \$? -eq 64 ] && echo \"\$out\" | grep -q 'unknown command fleet'"
    check "$ARCH imu: the same body-frame samples, heel and pitch as x86" bash -c \
        "[ \"\$($RUNNER $BIN imu --imu csv:Fixtures/demo-voyage/imu.csv --seconds 3 2>/dev/null | md5sum)\" = \
           \"\$($X86 imu --imu csv:Fixtures/demo-voyage/imu.csv --seconds 3 2>/dev/null | md5sum)\" ]"
    RECORDS=$(mktemp -d)
    $RUNNER "$BIN" record --input file:Fixtures/demo-voyage/voyage.nmea --directory "$RECORDS" --duration 2 2>/dev/null
    check "$ARCH record writes a tag-blocked log" bash -c "grep -q 's:input1,c:[0-9]' $RECORDS/telltale-*.nmea"
    rm -rf "$RECORDS"
    check "$ARCH ports answers" bash -c "$RUNNER $BIN ports >/dev/null"
    # The autopilot desk's commands compiled as the Pi's program is (Embedded, -Osize) and run: Swift 6.3 once
    # miscompiled its deliveries there and the gateway trapped on the first command to a pilot (#49).
    DESK=$(mktemp -d)
    if Tests/Pi/build.sh "$ARCH" "$DESK/desk" Tests/Pi/EmbeddedDesk >"$DESK/build.log" 2>&1; then
        check "$ARCH the autopilot desk's commands on the Embedded build (Tests/Pi/EmbeddedDesk)" bash -c \
            "$RUNNER $DESK/desk"
    else
        fail "$ARCH Tests/Pi/EmbeddedDesk did not build: $(tail -n 5 "$DESK/build.log")"
    fi
    rm -rf "$DESK"
    # The calibration learner on the Embedded build, on a real day with tacks and gybes (its card check once crashed
    # there appending to a string, 2026-11-29): it runs to its end and says what the x86 build says, to the counts.
    IRENE=../shared/fixtures/calibration/irene-2014-06-28.txt
    if [ -f "$IRENE" ]; then
        check "$ARCH calibrate sailing of a day of Irene's runs to its end and counts what x86 counts" bash -c \
            "A=\$($RUNNER $BIN calibrate sailing $IRENE) && B=\$($X86 calibrate sailing $IRENE) && \
             [ \"\$(echo \"\$A\" | head -n 1)\" = \"\$(echo \"\$B\" | head -n 1)\" ] && \
             [ \"\$(echo \"\$A\" | wc -l)\" = \"\$(echo \"\$B\" | wc -l)\" ] && echo \"\$A\" | grep -q 'card against the wind'"
        # The JSON the gateway's own learner reads back on board: whole, with the card check and every manoeuvre.
        check "$ARCH calibrate sailing --json of that day is whole JSON with its manoeuvres and card check" bash -c \
            "$RUNNER $BIN calibrate sailing --json $IRENE | python3 -c \
             'import json, sys; j = json.load(sys.stdin); assert j[\"card_check\"] and len(j[\"manoeuvres\"]) >= 10'"
    else
        echo "  skip $ARCH calibrate sailing: ../shared/fixtures/calibration is absent"
    fi
    check "$ARCH inspect --json of the demo voyage is the x86 report" bash -c \
        "[ \"\$($RUNNER $BIN inspect --json Fixtures/demo-voyage/voyage.nmea | md5sum)\" = \
           \"\$($X86 inspect --json Fixtures/demo-voyage/voyage.nmea | md5sum)\" ]"
    LOG=$(mktemp)
    TELLTALE_BIN=$BIN TELLTALE_RUNNER=$RUNNER CHECK_NAME="gpsd-$ARCH" MIN_MODE=3 Tests/Interop/gpsd-check.sh >"$LOG" 2>&1
    sed 's/^/  /' "$LOG"
    n=$(sed -n "s/^gpsd-$ARCH: \([0-9]*\) passed, \([0-9]*\) failed/\1 \2/p" "$LOG")
    if [ -n "$n" ]; then
        CHECKS_PASSED=$((CHECKS_PASSED + ${n%% *})); CHECKS_FAILED=$((CHECKS_FAILED + ${n##* }))
    else
        fail "$ARCH gpsd check said no count"
    fi
    rm -f "$LOG"
    echo "$ARCH: $(stat -c %s "$BIN") bytes"
done
checks_end
