#!/usr/bin/env bash
# The race button through the real GPIO ioctl (Tests/Interop/gpio_check.py): a preload shim (gpio-shim.c, built
# with the kernel's <linux/gpio.h>) plays a GPIO chip, and the bench presses and holds the button by writing the
# kernel's edge events down its line; the running gateway's race timer, seen in Signal K, starts, resets, starts.
#   Tests/Interop/gpio-check.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin gpio-check
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"; checks_trap' EXIT
gcc -shared -fPIC -O2 Tests/Interop/gpio-shim.c -o "$WORK/gpio-shim.so" -ldl
CHECKS_DONE=1
python3 Tests/Interop/gpio_check.py "${1:-.build/release/telltale}" "$WORK"
