#!/usr/bin/env bash
# Builds the Debian package telltale_<version>_<arch>.deb into .build-deb/:
#   Tests/Pi/deb.sh amd64|arm64|armhf|image
# amd64 packages the desktop build (static Swift standard library, every command); arm64 and armhf package the Pi
# build from `make pi`. The package holds the binary, the panel (Sources/Panel/), Boards/ (profiles), the systemd unit, sysusers.d and tmpfiles.d
# entries, and an example configuration in /etc/telltale/ (a conffile: kept when the package is removed).
# `image` builds telltale-image_<version>_all.deb: what turns a Debian root into the Telltale SD-card image
# (Boards/image: the read-only root, the data partition, the network, SSH by key, updates).
set -euo pipefail
cd "$(dirname "$0")/../.."
ARCH=${1:?amd64, arm64, armhf or image}
VERSION=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/Gateway/Configuration/Version.swift)
OUT=.build-deb
if [ "$ARCH" = image ]; then
    exec Tests/Pi/deb-image.sh "$VERSION" "$OUT"
fi
case "$ARCH" in
amd64) BIN=.build/release/telltale ;;
arm64 | armhf) BIN=.build-pi/$ARCH/telltale ;;
*) echo "deb.sh: amd64, arm64, armhf or image, not $ARCH" >&2; exit 64 ;;
esac
[ -x "$BIN" ] || { echo "deb.sh: $BIN is missing (make release-static, or make pi)" >&2; exit 1; }
ROOT=$OUT/telltale_${VERSION}_$ARCH
rm -rf "$ROOT"
install -d "$ROOT/DEBIAN" "$ROOT/usr/bin" "$ROOT/usr/share/telltale/Boards" "$ROOT/lib/systemd/system" \
    "$ROOT/usr/lib/sysusers.d" "$ROOT/usr/lib/tmpfiles.d" "$ROOT/etc/telltale" "$ROOT/usr/share/doc/telltale"
install -m 755 "$BIN" "$ROOT/usr/bin/telltale"
# The instrument panel: its page, style sheet and modules, served from here (the modules' tests stay in the tree).
install -d "$ROOT/usr/share/telltale/panel"
install -m 644 Sources/Panel/*.html Sources/Panel/*.js Sources/Panel/*.css "$ROOT/usr/share/telltale/panel/"
install -m 644 Boards/*.toml "$ROOT/usr/share/telltale/Boards/"
rm "$ROOT/usr/share/telltale/Boards/bench.toml" "$ROOT/usr/share/telltale/Boards/telltale.toml"
install -m 644 Boards/telltale.service "$ROOT/lib/systemd/system/telltale.service"
install -m 644 Boards/telltale.sysusers "$ROOT/usr/lib/sysusers.d/telltale.conf"
install -m 644 Boards/telltale.tmpfiles "$ROOT/usr/lib/tmpfiles.d/telltale.conf"
install -d "$ROOT/usr/lib/modules-load.d"
install -m 644 Boards/telltale.modules "$ROOT/usr/lib/modules-load.d/telltale.conf"
install -m 644 Boards/telltale.toml "$ROOT/etc/telltale/telltale.toml"
install -m 644 README.md "$ROOT/usr/share/doc/telltale/README.md"
echo /etc/telltale/telltale.toml > "$ROOT/DEBIAN/conffiles"
DEPENDS="libc6, libserialport0, libgps28, procps, libsqlite3-0, libjs-leaflet"
[ "$ARCH" = amd64 ] && DEPENDS="$DEPENDS, libstdc++6"
cat > "$ROOT/DEBIAN/control" <<CONTROL
Package: telltale
Version: $VERSION
Architecture: $ARCH
Maintainer: Telltale developers <telltale@localhost>
Depends: $DEPENDS
Recommends: libeccodes0, libmosquitto1
Section: misc
Priority: optional
Installed-Size: $(du -sk "$ROOT" | cut -f1)
Description: NMEA 0183 instrument gateway for sailing boats
 Reads NMEA 0183 from serial ports, gpsd and the network, and an IMU over I2C or IIO;
 sends true wind, heel and pitch, route guidance and heading to chartplotters and
 autopilots over TCP, UDP and serial. Runs as the systemd service telltale.
CONTROL
cat > "$ROOT/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    if command -v systemd-sysusers >/dev/null 2>&1; then
        systemd-sysusers telltale.conf
    elif ! getent passwd telltale >/dev/null; then
        useradd --system --home-dir /var/lib/telltale --no-create-home --shell /usr/sbin/nologin telltale
        usermod -a -G dialout,audio telltale
    fi
    # I2C IMUs: Raspberry Pi OS has an i2c group; plain Debian has none.
    if getent group i2c >/dev/null; then usermod -a -G i2c telltale; fi
    # The race button's GPIO lines: Raspberry Pi OS's gpio group owns /dev/gpiochip*.
    if getent group gpio >/dev/null; then usermod -a -G gpio telltale; fi
    # systemd-tmpfiles refuses to run without /proc (a chroot an image is built in): the folder is made by hand then.
    systemd-tmpfiles --create telltale.conf 2>/dev/null || install -d -m 750 -o telltale -g telltale /var/lib/telltale
    if [ -d /run/systemd/system ]; then
        systemctl daemon-reload
        systemctl enable telltale.service >/dev/null 2>&1 || true
        systemctl restart telltale.service || true
    else
        # No running systemd (a chroot, an image being built): enable it for the next boot.
        mkdir -p /etc/systemd/system/multi-user.target.wants
        ln -sf /lib/systemd/system/telltale.service /etc/systemd/system/multi-user.target.wants/telltale.service
    fi
fi
SCRIPT
cat > "$ROOT/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    systemctl stop telltale.service || true
    systemctl disable telltale.service >/dev/null 2>&1 || true
fi
SCRIPT
cat > "$ROOT/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = remove ] || [ "$1" = purge ]; then
    rm -f /etc/systemd/system/multi-user.target.wants/telltale.service
    # What the service advertised on DNS-SD (written by `telltale advertise` when it started).
    rm -f /etc/avahi/services/telltale.service
    if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
fi
# The configuration stays on remove (a conffile); purge removes it and the state.
if [ "$1" = purge ]; then rm -rf /var/lib/telltale; fi
SCRIPT
chmod 755 "$ROOT/DEBIAN/postinst" "$ROOT/DEBIAN/prerm" "$ROOT/DEBIAN/postrm"
dpkg-deb --root-owner-group -Zxz --build "$ROOT" "$OUT/" >/dev/null
echo "built $OUT/telltale_${VERSION}_$ARCH.deb ($(stat -c %s "$OUT/telltale_${VERSION}_$ARCH.deb") bytes)"
