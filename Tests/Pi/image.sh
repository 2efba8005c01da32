#!/usr/bin/env bash
# Builds the Telltale SD-card image for the Raspberry Pi 3, 4, 400, CM3/CM4 and Zero 2 W (64-bit) on this x86
# machine, from Debian bookworm alone: Debian's kernel and Raspberry Pi firmware (raspi-firmware, component
# non-free-firmware), the telltale and telltale-image packages (`make debs`), no loop devices (mmdebstrap into a
# folder, genimage's mkdosfs/mcopy and mke2fs -d), no file from outside Debian's archive.
#   Tests/Pi/image.sh [arm64]     -> .build-image/telltale-<version>-arm64.img (`make image` compresses it)
# The card: 1 the FAT boot partition (firmware, kernel, telltale.toml and network.toml a sailor edits), 2 the root,
# mounted read-only under a RAM overlay; the data partition (3) is made at 2 GiB on first boot and fills the card.
# Needs root (mmdebstrap's root mode keeps owners and device nodes), mmdebstrap, genimage, mtools, dosfstools,
# qemu-user-static and binfmt-support (the arm64 packages' scripts run under emulation); `make image` installs them.
set -euo pipefail
cd "$(dirname "$0")/../.."
# One disk signature for every card: the kernel finds its root as PARTUUID=7e117a1e-02.
SIGNATURE=7e117a1e

# Before any package: no documentation but the licences, no translations, and no initramfs built while the packages
# go in (each build under qemu-user takes minutes; one is built at the end, with Telltale's short module list).
setup_hook() {
    local root=$1
    mkdir -p "$root/etc/dpkg/dpkg.cfg.d"
    cat > "$root/etc/dpkg/dpkg.cfg.d/telltale-image" <<'CFG'
path-exclude=/usr/share/doc/*
path-include=/usr/share/doc/*/copyright
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/locale/*
path-include=/usr/share/locale/locale.alias
path-exclude=/usr/share/lintian/*
CFG
}
essential_hook() {
    local root=$1
    chroot "$root" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs
    ln -s /bin/true "$root/usr/sbin/update-initramfs"
}
customize_hook() {
    local root=$1
    rm "$root/usr/sbin/update-initramfs"
    chroot "$root" dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs
    echo telltale > "$root/etc/hostname"
    echo LANG=C.UTF-8 > "$root/etc/default/locale"
    printf '127.0.0.1\tlocalhost\n127.0.1.1\ttelltale\n::1\tlocalhost ip6-localhost ip6-loopback\n' > "$root/etc/hosts"
    cat > "$root/etc/fstab" <<FSTAB
# The root is mounted read-only under a RAM overlay by the initramfs (telltale-overlay); the data partition by
# telltale-data.service. The boot partition stays read-only but while something is written to it, and is never
# needed to boot: nofail (a late, missing or broken FAT never reaches emergency mode; the boot waits 10 s for it,
# then goes on with what the data partition kept, and telltale-boot.service takes its files in when it appears).
PARTUUID=$SIGNATURE-01  /boot/firmware  vfat  ro,noatime,umask=0022,nofail,x-systemd.device-timeout=10s  0  2
FSTAB
    # gpsd opens only what /etc/default/gpsd names (nothing), never what USB hotplug offers it.
    sed -i 's/^USBAUTO=.*/USBAUTO="false"/; s/^DEVICES=.*/DEVICES=""/' "$root/etc/default/gpsd"
    # No service that writes to the card or reaches the Internet on its own.
    chroot "$root" systemctl disable apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer \
        e2scrub_reap.service >/dev/null 2>&1 || true
    chroot "$root" systemctl mask systemd-networkd-wait-online.service >/dev/null 2>&1 || true
    # Every card makes its own SSH host keys (on its data partition) and its own machine id.
    rm -f "$root"/etc/ssh/ssh_host_*
    : > "$root/etc/machine-id"
    rm -f "$root/var/lib/dbus/machine-id"
    mkdir -p "$root/data" "$root/boot/firmware"
    # Debian's firmware hook writes config.txt and cmdline.txt from these: the root by partition id, read-only (the
    # overlay makes it writable in RAM), no console on the GPIO UART (it carries NMEA), a check that repairs.
    cat > "$root/etc/default/raspi-firmware" <<CFG
ROOTPART=PARTUUID=$SIGNATURE-02
CONSOLES="tty0"
CFG
    echo "ro quiet" > "$root/etc/default/raspi-extra-cmdline"
    # I2C on the header (GPIO 2/3, bus 1) for an IMU; the GPIO UART at a stable clock (enable_uart, from the hook).
    cat > "$root/etc/default/raspi-firmware-custom" <<'CFG'
dtparam=i2c_arm=on
CFG
    # The initramfs, once, and through Debian's hooks the boot partition's kernel, initramfs, device trees,
    # config.txt and cmdline.txt.
    local kernel
    kernel=$(ls "$root/lib/modules" | sort -V | tail -n 1)
    chroot "$root" update-initramfs -c -k "$kernel" >/dev/null
    # Only what mmdebstrap does not clean itself. Never $root/tmp: mmdebstrap's own apt configuration lives there
    # until its last step, whose `apt-get update` with no sources then reads the host's configuration instead and
    # empties the host's package lists (it did, on every build, until this was found). mmdebstrap empties the root's
    # package lists, apt cache and /tmp at its end.
    rm -f "$root"/var/log/*.log "$root"/var/cache/debconf/*-old
}
# mmdebstrap calls back into this script for its hooks: image.sh --hook setup|essential|customize ROOT.
if [ "${1:-}" = --hook ]; then
    "${2}_hook" "$3"
    exit 0
fi

ARCH=${1:-arm64}
[ "$ARCH" = arm64 ] || { echo "image.sh: arm64 only (armhf is not built yet)" >&2; exit 64; }
VERSION=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/Gateway/Configuration/Version.swift)
DEB=.build-deb/telltale_${VERSION}_$ARCH.deb
IMAGE_DEB=.build-deb/telltale-image_${VERSION}_all.deb
for f in "$DEB" "$IMAGE_DEB"; do
    [ -f "$f" ] || { echo "image.sh: $f is missing (make debs)" >&2; exit 1; }
done
WORK=$PWD/.build-image/$ARCH
OUT=$PWD/.build-image
NAME=telltale-$VERSION-$ARCH
SUITE=bookworm
# The archive this machine's apt uses (its deb822 or one-line sources), so a mirror set up here is used here too.
MIRROR=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -n 1)
[ -n "$MIRROR" ] || MIRROR=$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
MIRROR=${MIRROR:-http://deb.debian.org/debian}
# Dates inside the image from the last commit, so two builds of one commit differ only where Debian's do.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
PACKAGES=(
    # The system: systemd, udev, the kernel with an initramfs, the Pi's boot firmware and Wi-Fi firmware.
    systemd systemd-sysv udev kmod dbus initramfs-tools zstd linux-image-arm64 raspi-firmware firmware-brcm80211
    wireless-regdb systemd-timesyncd
    # The network: addresses by systemd-networkd, the boat's access point (hostapd) or the marina's Wi-Fi
    # (wpasupplicant), telltale.local and the services advertised (avahi), SSH when a key is given.
    iproute2 iw wpasupplicant hostapd avahi-daemon openssh-server
    # The data partition made and checked at boot.
    e2fsprogs dosfstools fdisk
    # A USB GPS through gpsd; the voice (espeak-ng, aplay); GRIB forecasts read by `telltale weather import` (ecCodes,
    # in its own process: the gateway never maps it); the fleet uplink's MQTT client (opened only when [uplink] is on).
    gpsd espeak-ng alsa-utils libeccodes0 libmosquitto1
    # The NMEA 2000 bus: candump, cansend and canplayer to look at it and test it (the gateway needs none of them).
    can-utils
)
include=$(IFS=,; echo "${PACKAGES[*]}")

SELF=$PWD/Tests/Pi/image.sh
# A build interrupted in mmdebstrap's chroot (Ctrl-C, a killed CI job) can leave its bind mounts (proc, sys, dev, the
# packages) under the work folder: taken down first, deepest first, so the folder can go and the host is as it was.
awk -v work="$(realpath -m "$WORK")/" 'index($2, work) == 1 { print $2 }' /proc/self/mounts | sort -r |
    while read -r stale; do umount -l "$stale" 2>/dev/null || true; done
rm -rf "$WORK"
mkdir -p "$WORK"


echo "image.sh: Debian $SUITE for $ARCH from $MIRROR into $WORK/root ($(df -Pm "$WORK" | awk 'NR == 2 { print $4 }') MiB free there; the build needs about 5000)"
mmdebstrap --arch="$ARCH" --variant=minbase --components=main,non-free-firmware \
    --aptopt='APT::Install-Recommends "false"' --include="$include" \
    --include="$PWD/$DEB" --include="$PWD/$IMAGE_DEB" --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
    --setup-hook="$SELF --hook setup \"\$1\"" --essential-hook="$SELF --hook essential \"\$1\"" \
    --customize-hook="$SELF --hook customize \"\$1\"" \
    "$SUITE" "$WORK/root" "$MIRROR" 2>&1 | grep -v '^I: \|^W: Download is performed unsandboxed' || true
[ -f "$WORK/root/boot/firmware/config.txt" ] || { echo "image.sh: the root has no boot files" >&2; exit 1; }

# What a sailor edits on the boot partition, and a note for them.
install -m 644 Boards/image/boot/telltale.toml Boards/image/boot/network.toml Boards/image/boot/README.txt \
    "$WORK/root/boot/firmware/"

# The partitions and the card. genimage copies the root folder, gives /boot/firmware to the FAT image and the rest
# to the ext4 one.
root_mib=$(( $(du -sm --exclude=./boot/firmware "$WORK/root" | cut -f1) * 13 / 10 + 200 ))
cat > "$WORK/genimage.cfg" <<CFG
image boot.vfat {
    vfat {
        label = "TELLTALE"
        extraargs = "-F 32 -i $SIGNATURE"
    }
    mountpoint = "/boot/firmware"
    size = 256M
}
image root.ext4 {
    ext4 {
        label = "telltale-root"
        use-mke2fs = true
        extraargs = "-U 7e117a1e-0000-4000-8000-000000000002 -E hash_seed=7e117a1e-0000-4000-8000-000000000003"
    }
    size = ${root_mib}M
}
image $NAME.img {
    hdimage {
        partition-table-type = "mbr"
        disk-signature = 0x$SIGNATURE
    }
    partition boot {
        partition-type = 0xC
        bootable = true
        image = "boot.vfat"
        offset = 4M
    }
    partition root {
        partition-type = 0x83
        image = "root.ext4"
    }
}
CFG
rm -rf "$WORK/genimage-tmp" "$WORK/images"
E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH genimage --rootpath "$WORK/root" --tmppath "$WORK/genimage-tmp" \
    --inputpath "$WORK/images" --outputpath "$WORK/images" --config "$WORK/genimage.cfg" >"$WORK/genimage.log" 2>&1 ||
    { tail -20 "$WORK/genimage.log" >&2; exit 1; }
mv "$WORK/images/$NAME.img" "$OUT/$NAME.img"
# Only the card stays: the root folder, genimage's copy of it and the partition images (3 GB together) are gone.
# (Never the root while anything is still mounted in it: a bind mount of the host's /dev would go with it.)
rm -rf "$WORK/genimage-tmp" "$WORK/images"
awk -v work="$(realpath -m "$WORK")/" 'index($2, work) == 1 { found = 1 } END { exit !found }' /proc/self/mounts ||
    rm -rf "$WORK/root"
echo "built $OUT/$NAME.img ($(( $(stat -c %s "$OUT/$NAME.img") / 1048576 )) MiB)"
