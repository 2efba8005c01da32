#!/usr/bin/env bash
# A login's hash on a Pi's arm64 under qemu-user (an upper bound): Debian's libsodium23 for arm64, the shore's
# parameters (Argon2id, 3 passes over 64 MiB), made and checked three times; the same program on this machine beside
# it. The Pi's build has no shore, so this times the library the shore would call there. Needs `make pi-deps` (the
# cross compiler, qemu-user, Debian's arm64 package lists).
#   Benchmarks/login_arm64.sh
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && apt-get download libsodium23:arm64 >/dev/null 2>&1 && dpkg-deb -x libsodium23_*_arm64.deb root)
aarch64-linux-gnu-gcc -O2 -o "$WORK/login-arm64" Benchmarks/argon2_login.c -ldl
gcc -O2 -o "$WORK/login-x86" Benchmarks/argon2_login.c -ldl
echo "x86-64, this machine:"
"$WORK/login-x86"
echo "arm64 under qemu-aarch64:"
qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH="$WORK/root/usr/lib/aarch64-linux-gnu" "$WORK/login-arm64"
