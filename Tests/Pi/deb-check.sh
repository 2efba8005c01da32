#!/usr/bin/env bash
# The Debian package installed into a clean Debian bookworm root made with debootstrap (amd64; the ARM packages
# carry the same files and scripts around the ARM binary):
#  1. `apt-get install ./telltale_*.deb` pulls its dependencies and succeeds;
#  2. `telltale check-config /etc/telltale/telltale.toml` accepts the example configuration;
#  3. the telltale user exists, in dialout, and /var/lib/telltale belongs to it;
#  4. `systemd-analyze verify` accepts the unit, and `systemd-analyze security` rates its exposure 2.0 or lower;
#  5. removing the package keeps the configuration and takes the binary and the service link away;
#  6. `dpkg -i` in a root without /proc (as an image is built) succeeds and enables the service.
#   Tests/Pi/deb-check.sh [.build-deb/telltale_VERSION_amd64.deb]
set -uo pipefail
cd "$(dirname "$0")/../.."
. Tests/Support/checks.sh
checks_begin deb-check
DEB=${1:-$(ls .build-deb/telltale_*_amd64.deb 2>/dev/null | tail -n 1)}
[ -f "$DEB" ] || { echo "no amd64 package (make deb ARCH=amd64)"; exit 1; }
ROOT=$PWD/.build-deb/root-bookworm-amd64
if [ ! -f "$ROOT/.done" ]; then
    rm -rf "$ROOT"
    debootstrap --variant=minbase --include=systemd bookworm "$ROOT" http://deb.debian.org/debian >/dev/null || {
        echo "debootstrap failed"; exit 1; }
    touch "$ROOT/.done"
fi
# Everything inside runs in a private mount namespace, so /proc is mounted for the chroot and gone afterwards.
in_root() {
    unshare -m sh -c 'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' "$ROOT" "$@"
}
cp "$DEB" "$ROOT/tmp/telltale.deb"
in_root apt-get update -qq >/dev/null 2>&1 || true
check "apt-get install ./telltale.deb" \
    sh -c "$(declare -f in_root); ROOT='$ROOT'; in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/telltale.deb >/tmp/deb-install.log 2>&1 || { tail -20 /tmp/deb-install.log; exit 1; }"
check "check-config accepts /etc/telltale/telltale.toml" \
    sh -c "$(declare -f in_root); ROOT='$ROOT'; in_root telltale check-config /etc/telltale/telltale.toml | grep -q ': valid ('"
check "the telltale user exists and is in dialout" \
    sh -c "$(declare -f in_root); ROOT='$ROOT'; in_root id -nG telltale | grep -qw dialout"
check "/var/lib/telltale belongs to telltale" \
    sh -c "$(declare -f in_root); ROOT='$ROOT'; [ \"\$(in_root stat -c %U /var/lib/telltale)\" = telltale ]"
check "the panel is installed where the gateway serves it from, every module" sh -c \
    "for f in Sources/Panel/*.html Sources/Panel/*.js Sources/Panel/*.css; do cmp -s \"\$f\" \"$ROOT/usr/share/telltale/panel/\${f#Sources/Panel/}\" || exit 1; done"
check "the service is enabled for the next boot" test -L "$ROOT/etc/systemd/system/multi-user.target.wants/telltale.service"
check "systemd-analyze verify accepts the unit" \
    sh -c "$(declare -f in_root); ROOT='$ROOT'; in_root systemd-analyze verify /lib/systemd/system/telltale.service 2>&1"
exposure=$(systemd-analyze security --offline=true --root="$ROOT" telltale.service 2>/dev/null |
    sed -n 's/.*Overall exposure level for telltale.service: \([0-9.]*\).*/\1/p')
check "systemd-analyze security: exposure ${exposure:-?} (at most 2.0)" \
    python3 -c "import sys; sys.exit(0 if '${exposure:-99}' and float('${exposure:-99}') <= 2.0 else 1)"
in_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq telltale >/dev/null 2>&1
check "removal keeps /etc/telltale/telltale.toml" test -f "$ROOT/etc/telltale/telltale.toml"
check "removal takes the binary and the service link" \
    sh -c "[ ! -e '$ROOT/usr/bin/telltale' ] && [ ! -e '$ROOT/etc/systemd/system/multi-user.target.wants/telltale.service' ]"
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq telltale >/dev/null 2>&1
# As an image build installs it: in a chroot with no /proc mounted (systemd-tmpfiles refuses to run there).
check "dpkg -i in a root without /proc: installed, enabled for the next boot, state folder made" sh -c \
    "chroot '$ROOT' dpkg -i /tmp/telltale.deb >/tmp/deb-noproc.log 2>&1 || { tail -5 /tmp/deb-noproc.log; exit 1; }
     test -L '$ROOT/etc/systemd/system/multi-user.target.wants/telltale.service' &&
     [ \"\$(stat -c %u '$ROOT/var/lib/telltale')\" = \"\$(chroot '$ROOT' id -u telltale)\" ]"
check "usbserial and cdc_acm load at boot, before the unit resolves its device rules" \
    grep -qx usbserial "$ROOT/usr/lib/modules-load.d/telltale.conf"
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq telltale >/dev/null 2>&1
rm -f "$ROOT/tmp/telltale.deb"
checks_end
