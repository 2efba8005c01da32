#!/usr/bin/env bash
# Builds `telltale` for a Raspberry Pi on this x86 machine: the project's modules compiled as Embedded Swift for the
# ARM target, linked against glibc and the Debian arm64/armhf packages of libserialport and libgps.
#   Tests/Pi/build.sh arm64|armhf [OUT]      (OUT defaults to .build-pi/ARCH/telltale)
#   Tests/Pi/build.sh arm64|armhf OUT DIR    another program, DIR's Swift files, on the modules the last build left
#                                            (the checks' own Embedded programs: Tests/Pi/EmbeddedDesk)
# Needs: gcc-aarch64-linux-gnu libc6-dev-arm64-cross (arm64), gcc-arm-linux-gnueabihf libc6-dev-armhf-cross (armhf);
# `make pi` installs them. The C libraries' .deb files are fetched with apt-get download and unpacked into a
# sysroot under .build-pi, so no multiarch install touches the machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
ARCH=${1:?arm64 or armhf}
PROGRAM=${3:-}
case "$ARCH" in
arm64)
    TARGET=aarch64-none-none-elf; GNU=aarch64-linux-gnu; CFLAGS=(); LDFLAGS=()
    ;;
armhf)
    # Debian armhf: ARMv7, hard-float calling convention (Pi 2 and later, Zero 2 W in 32-bit mode).
    TARGET=armv7-none-none-eabi; GNU=arm-linux-gnueabihf
    CFLAGS=(-Xcc -mfloat-abi=hard -Xcc -mfpu=vfpv3-d16 -Xcc -fno-short-enums)
    # The toolchain's Unicode tables for ARMv7 are tagged soft-float. Their functions pass only integers and
    # pointers, so the calling conventions agree; ld is told not to refuse the tag.
    LDFLAGS=(-Wl,--no-warn-mismatch)
    ;;
*) echo "build.sh: arm64 or armhf, not $ARCH" >&2; exit 64 ;;
esac
WORK=.build-pi/$ARCH
OUT=${2:-$WORK/telltale}
SYSROOT=$WORK/sysroot
mkdir -p "$WORK/modules" "$SYSROOT"

# The C libraries for the target, from Debian's own packages: what the link needs, and what running the binary
# under qemu-user needs besides (libgps's own dependencies).
# libsqlite3 is opened with dlopen for the charts; its header and the library (for qemu-user's runs) come too. So is
# ecCodes by `telltale weather import` (no header needed: the library and its own dependencies, for qemu-user; its
# definitions are the host's, libeccodes-data being the same for every architecture). The list is written into the
# marker, so a sysroot made from an older list is made again.
packages=(libserialport-dev libserialport0 libgps-dev libgps28 libdbus-1-3 libsystemd0 libcap2 libgcrypt20 liblz4-1
    liblzma5 libzstd1 libgpg-error0 libsqlite3-dev libsqlite3-0 libeccodes0 libaec0 libgfortran5 libgomp1 libopenjp2-7
    libpng16-16 zlib1g libmosquitto-dev libmosquitto1 libssl3)
if [ "$(cat "$SYSROOT/.done" 2>/dev/null)" != "${packages[*]}" ]; then
    (cd "$WORK" && rm -f ./*.deb && apt-get download -q "${packages[@]/%/:$ARCH}" 2>&1 | grep -v '^W: ' >&2 || true)
    for deb in "$WORK"/*.deb; do dpkg-deb -x "$deb" "$SYSROOT"; done
    echo "${packages[*]}" > "$SYSROOT/.done"
fi

# Each function in a section of its own, so that the link's --gc-sections drops what nothing calls: Embedded Swift
# emits every specialisation a module uses into that module, and most copies go (arm64: 4.2 MB before, 1.5 MB after).
SWIFT_FLAGS=(
    -target "$TARGET" -enable-experimental-feature Embedded -enable-experimental-feature Extern
    -package-name Telltale -wmo -Osize -Xfrontend -function-sections -parse-as-library -I Sources/CPosix -I Sources/CSerialPort -I Sources/CGPS -I Sources/CSQLite -I Sources/CMosquitto -I "$WORK/modules"
    -Xcc -isystem -Xcc "$SYSROOT/usr/include" -Xcc -isystem -Xcc "/usr/$GNU/include"
    -Xcc -D__linux__ -Xcc -D__unix__ "${CFLAGS[@]}"
)
# swiftc skips a module whose sources are older than its outputs, flags or not: outputs made with other flags go.
if [ "$(cat "$WORK/modules/.flags" 2>/dev/null)" != "${SWIFT_FLAGS[*]}" ]; then
    rm -rf "$WORK/modules" && mkdir -p "$WORK/modules" && echo "${SWIFT_FLAGS[*]}" > "$WORK/modules/.flags"
fi
# Only the last module, the command line, is compiled to code. Embedded Swift serialises every function of a module
# into its .swiftmodule and compiles what a client uses into the client, so the command line's object holds the whole
# program; the other modules' objects were compiled (Gateway alone for 3 minutes) only for --gc-sections to drop
# them. Each module before it is type-checked, optimised and serialised (-emit-module), no more: a build takes about
# 5.5 minutes of one core instead of 10.
# In dependency order: the pure core and the router, the syscall funnel, the drivers, the shell, the command line.
if [ -z "$PROGRAM" ]; then
    for module in NMEA N2K Marine Engine Router Bridge SignalK Fleet Platform Sensors Gateway; do
        mapfile -t files < <(find "Sources/$module" -name '*.swift' | sort)
        swiftc "${SWIFT_FLAGS[@]}" -module-name "$module" -emit-module \
            -emit-module-path "$WORK/modules/$module.swiftmodule" "${files[@]}"
    done
fi
mapfile -t files < <(find "${PROGRAM:-Sources/TelltalePi}" -name '*.swift' | sort)
swiftc "${SWIFT_FLAGS[@]}" -module-name TelltalePi "${files[@]}" -c -o "$WORK/modules/TelltalePi.o"
rm -f "$WORK"/modules/{NMEA,N2K,Marine,Engine,Router,Bridge,SignalK,Fleet,Platform,Sensors,Gateway}.o
LIBDIR=$SYSROOT/usr/lib/$GNU
# String comparison normalises Unicode: its tables come with the toolchain's Embedded library for the target.
UNICODE=$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/embedded/$TARGET/libswiftUnicodeDataTables.a
# The loop's own functions side by side at the start of the text (Tests/Pi/loop-functions.txt, written by
# Tests/Pi/loop-profile.sh): the daemon gives back the pages start-up touched, and what the loop then pages in again is
# about 540 KB of code together instead of the same functions scattered over a page each across the 3 MB. lld (the
# Swift toolchain's own) places sections by a list of symbols; Debian's GNU ld has no such option before 2.43. A name
# the list has and the program no longer does is skipped.
LLD=$WORK/lld
mkdir -p "$LLD" && ln -sf "$(dirname "$(command -v swiftc)")/ld.lld" "$LLD/ld.lld"
ORDER=(-B"$LLD" -fuse-ld=lld -Wl,--symbol-ordering-file=Tests/Pi/loop-functions.txt -Wl,--no-warn-symbol-ordering)
# SYMBOLS=1 keeps the symbols (for Tests/Pi/loop-profile.sh); the Pi's binary is stripped.
STRIP=(-s)
[ "${SYMBOLS:-0}" = 1 ] && STRIP=()
"$GNU-gcc" -o "$OUT" "$WORK/modules/TelltalePi.o" "$UNICODE" -L "$LIBDIR" -Wl,-rpath-link,"$LIBDIR" -l:libserialport.so.0 -lm -ldl \
    -Wl,--allow-shlib-undefined -Wl,--gc-sections "${STRIP[@]}" "${ORDER[@]}" "${LDFLAGS[@]}"
echo "built $OUT ($(stat -c %s "$OUT") bytes)"
