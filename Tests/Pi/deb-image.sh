#!/usr/bin/env bash
# Builds telltale-image_<version>_all.deb from Boards/image/system and Boards/image/initramfs: the files that make a
# Debian root into the Telltale SD-card image. Run through `Tests/Pi/deb.sh image`.
#   Tests/Pi/deb-image.sh VERSION OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
VERSION=${1:?version}
OUT=${2:?output folder}
SRC=Boards/image
ROOT=$OUT/telltale-image_${VERSION}_all
rm -rf "$ROOT"
install -d "$ROOT/DEBIAN" "$ROOT/usr/lib/telltale" "$ROOT/lib/systemd/system/telltale.service.d" \
    "$ROOT/lib/systemd/system/ssh.service.d" "$ROOT/etc/ssh/sshd_config.d" "$ROOT/usr/lib/systemd/network" \
    "$ROOT/usr/lib/udev/rules.d" "$ROOT/etc/udev/rules.d" "$ROOT/usr/lib/systemd/journald.conf.d" \
    "$ROOT/usr/share/initramfs-tools/scripts/init-bottom" "$ROOT/usr/share/initramfs-tools/hooks" \
    "$ROOT/etc/initramfs-tools/conf.d" "$ROOT/usr/share/doc/telltale-image" "$ROOT/data" \
    "$ROOT/usr/share/telltale/image" "$ROOT/lib/systemd/system/emergency.service.d" \
    "$ROOT/lib/systemd/system/rescue.service.d"
# The boot partition's files as the image ships them: telltale-data keeps a data partition's configuration when a
# new image (with this example on its boot partition) is written over an old one.
install -m 644 "$SRC/boot/telltale.toml" "$SRC/boot/network.toml" "$SRC/boot/README.txt" "$ROOT/usr/share/telltale/image/"
for script in telltale-data telltale-can-overlay telltale-wifi telltale-update telltale-rescue; do
    install -m 755 "$SRC/system/$script" "$ROOT/usr/lib/telltale/$script"
done
for unit in telltale-data.service telltale-network.service telltale-wifi.service telltale-update.service \
    telltale-boot.service; do
    install -m 644 "$SRC/system/$unit" "$ROOT/lib/systemd/system/$unit"
done
install -m 644 "$SRC/system/telltale-image.conf" "$ROOT/lib/systemd/system/telltale.service.d/image.conf"
install -m 644 "$SRC/system/ssh-telltale.conf" "$ROOT/lib/systemd/system/ssh.service.d/telltale.conf"
# No shell in emergency or rescue mode (no keyboard, no screen, a locked root): telltale-rescue goes on to the gateway.
install -m 644 "$SRC/system/rescue-telltale.conf" "$ROOT/lib/systemd/system/emergency.service.d/telltale.conf"
install -m 644 "$SRC/system/rescue-telltale.conf" "$ROOT/lib/systemd/system/rescue.service.d/telltale.conf"
install -m 644 "$SRC/system/sshd-telltale.conf" "$ROOT/etc/ssh/sshd_config.d/telltale.conf"
install -m 644 "$SRC/system/telltale-wired.network" "$ROOT/usr/lib/systemd/network/80-telltale-wired.network"
install -m 644 "$SRC/system/telltale-can.network" "$ROOT/usr/lib/systemd/network/80-telltale-can.network"
install -m 644 "$SRC/system/61-telltale.rules" "$ROOT/usr/lib/udev/rules.d/61-telltale.rules"
# gpsd's hotplug rule masked: it would take the PL2303, CP210x and FTDI adapters marine NMEA cables use.
ln -s /dev/null "$ROOT/etc/udev/rules.d/60-gpsd.rules"
install -m 644 "$SRC/system/journald-telltale.conf" "$ROOT/usr/lib/systemd/journald.conf.d/telltale.conf"
install -m 755 "$SRC/initramfs/telltale-overlay" "$ROOT/usr/share/initramfs-tools/scripts/init-bottom/telltale-overlay"
install -m 755 "$SRC/initramfs/telltale-hook" "$ROOT/usr/share/initramfs-tools/hooks/telltale"
printf '# Telltale image: only the modules the hook "telltale" lists (the SD card, virtio, ext4, overlay).\nMODULES=list\n' \
    > "$ROOT/etc/initramfs-tools/conf.d/telltale"
cat > "$ROOT/usr/share/doc/telltale-image/copyright" <<'TEXT'
Telltale image files: Copyright the Telltale developers. See the telltale package.
TEXT
# The offline base map (`make basemap`, from Debian's GSHHG): where the gateway looks for it.
[ -f .build/basemap/basemap-f.ttbm ] || { echo "deb-image.sh: no .build/basemap (make basemap makes it)" >&2; exit 1; }
install -d "$ROOT/usr/share/telltale/basemap"
install -m 644 .build/basemap/basemap-*.ttbm "$ROOT/usr/share/telltale/basemap/"
[ ! -f .build/basemap/gazetteer.txt ] || install -m 644 .build/basemap/gazetteer.txt "$ROOT/usr/share/telltale/basemap/"
cat > "$ROOT/usr/share/doc/telltale-image/copyright.gshhg" <<'TEXT'
/usr/share/telltale/basemap: made by `telltale basemap` from GSHHG 2.3.7 (Global Self-consistent Hierarchical
High-resolution Geography), P. Wessel and W. H. F. Smith, as Debian's gmt-gshhg-low, gmt-gshhg-high and gmt-gshhg-full
packages carry it. GSHHG is distributed under the GNU Lesser General Public License, version 3 or later; on Debian
systems its text is in /usr/share/common-licenses/LGPL-3.

/usr/share/telltale/basemap/gazetteer.txt: the towns of 15,000 people or more from GeoNames (geonames.org), as
Debian's libgeonames0 carries them, under the Creative Commons Attribution 4.0 licence
(https://creativecommons.org/licenses/by/4.0/).
TEXT
(cd "$ROOT" && find etc -type f | sed 's|^|/|') > "$ROOT/DEBIAN/conffiles"
cat > "$ROOT/DEBIAN/control" <<CONTROL
Package: telltale-image
Version: $VERSION
Architecture: all
Maintainer: Telltale developers <telltale@localhost>
Depends: telltale (>= $VERSION), systemd, udev, initramfs-tools, e2fsprogs, fdisk, util-linux, avahi-daemon,
 wpasupplicant, hostapd
Recommends: openssh-server
Section: misc
Priority: optional
Installed-Size: $(du -sk "$ROOT" | cut -f1)
Description: Telltale's SD-card image: read-only root, data partition, boat network
 Makes a Debian root on a Raspberry Pi into the Telltale image: the root mounted read-only under a RAM overlay,
 the configuration and recordings on a data partition made on first boot, the boat's Wi-Fi (an access point, or
 the marina's network) from network.toml on the boot partition, SSH only with a key put there, and updates
 installed from the boot partition.
CONTROL
cat > "$ROOT/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    # systemctl enable works without a running systemd (an image being built) as well as with one.
    systemctl enable telltale-data.service telltale-network.service telltale-update.service \
        systemd-networkd.service >/dev/null 2>&1 || true
    if command -v update-initramfs >/dev/null 2>&1 && ls /boot/vmlinuz-* >/dev/null 2>&1; then
        update-initramfs -u || true
    fi
fi
SCRIPT
cat > "$ROOT/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = remove ] || [ "$1" = purge ]; then
    for unit in telltale-data.service telltale-network.service telltale-update.service; do
        rm -f "/etc/systemd/system/local-fs.target.wants/$unit" "/etc/systemd/system/multi-user.target.wants/$unit"
    done
fi
SCRIPT
chmod 755 "$ROOT/DEBIAN/postinst" "$ROOT/DEBIAN/postrm"
dpkg-deb --root-owner-group -Zxz --build "$ROOT" "$OUT/" >/dev/null
echo "built $OUT/telltale-image_${VERSION}_all.deb ($(stat -c %s "$OUT/telltale-image_${VERSION}_all.deb") bytes)"
