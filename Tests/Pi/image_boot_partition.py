"""On copies of the card (image_check.py, stage 5b): the boot partition late (its entry taken off the card's table and
plugged in as a drive of its own once the boot has gone on), holding a telltale.toml that does not parse; and the
boot partition broken (its first sector zeroed) with emergency mode asked for. Each boot serves computed true wind on
TCP and Signal K on the data partition's configuration, says what happened, and ends in neither emergency nor rescue
mode. On the late one, telltale.toml edited as on a laptop: naming a polar not on the card, then nothing missing."""
import json
import os

from emulated_pi import EmulatedPi, SerialFeed
from image_support import computed_true_wind, http
from image_support import instruments
from support import OutputReader, wait_for


def no_emergency(pi):
    """The boot is neither in emergency nor rescue mode now, the gateway runs, and what failed is the boot partition's
    mount alone (a nofail mount: said, not fatal)."""
    modes = pi.out("systemctl is-active emergency.target rescue.target; systemctl is-active telltale")
    failed = pi.out("systemctl --failed --no-legend --plain | awk '{ print $1 }'").split()
    return modes.split() == ["inactive", "inactive", "active"] and all(
        u == "boot-firmware.mount" or u.startswith("systemd-fsck@") for u in failed), f"{modes} failed: {failed}"


def serving(pi, output):
    """True wind computed from the adapter's instruments on TCP, and Signal K answering."""
    flowing = wait_for(lambda: len(computed_true_wind(output.lines())) > 5, 90, step=0.5)
    return flowing and http(pi, "/signalk")[0] == 200


def notes(pi):
    """The panel's notes, as one text."""
    status, body = http(pi, "/telltale/v1/notes")
    return " ".join((json.loads(body) if status == 200 else {}).get("notes", []))


CALIBRATION = '\n[calibration]\nfile = "/var/lib/telltale/boat-calibration.toml"\n'
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def without_files(pi, check, sailor, said):
    """A polar on the boot partition that is not there and a calibration cut short: the sailor's configuration kept
    (check-config's exit status 3), each file named on the panel, the gateway on without them and saying so, and a
    restart armed for when the boot partition appears."""
    log = pi.out("journalctl -u telltale -b --no-pager")
    check(pi.out("cat /etc/telltale/telltale.toml") == sailor.rstrip("\n")
          and pi.out("ls /etc/telltale/telltale.toml.damaged 2>/dev/null") == ""
          and "Files the configuration names cannot be read" in said
          and "polar: " in said and "/boot/firmware/polar.csv" in said and "boat-calibration.toml" in said,
          "a polar on the missing boot partition and a calibration cut short: the sailor's configuration kept, "
          "both named on the panel", said[:600] + pi.out("journalctl -u telltale-data -b --no-pager | tail -n 6"))
    check("no polar targets nor performance" in log and "run uncalibrated" in log
          and pi.out("test -f /run/telltale/files-late && echo armed") == "armed",
          "the gateway runs without them and says why in its log; a restart armed for the boot partition's return",
          "\n".join(line for line in log.splitlines() if "polar" in line or "calibration" in line)[-600:])


def edited_on_the_laptop(pi, check, configuration, output):
    """telltale.toml edited on the card as on a laptop, naming files beside it by their names alone (the example's
    `files = "/boot/firmware"`): a polar not copied onto the card (check-config's status 3) is taken, the gateway
    started again on it without the polar, which is named on the panel and beside it on the card; then the polar put
    there: taken, the polar read by the copy the Pi runs, and the note on the card gone. Until 2026-12-02 the first was
    refused as a whole, the copy looked for a relative polar in /etc/telltale, and a note on the card outlived the
    configuration that mended it (the partition is mounted read-only)."""
    def edit(text, polar=None):
        pi.out("mount -o remount,rw /boot/firmware")
        if polar:
            pi.put("/boot/firmware/polar.csv", polar)
        pi.put("/boot/firmware/telltale.toml", text.encode())
        pi.out("mount -o remount,ro /boot/firmware; systemctl start telltale-boot.service", timeout=120)

    def journal():
        return pi.out("journalctl -u telltale -u telltale-boot -b --no-pager | grep -i 'polar\\|took\\|cannot' "
                      "| tail -n 6")

    def polar_speed():
        status, body = http(pi, "/signalk/v1/api/vessels/self/performance/polarSpeed")
        return json.loads(body).get("value") if status == 200 else None

    check('\nfiles = "/boot/firmware"\n' in configuration,
          "the sailor's configuration, from the image's example, says its files are on the card", configuration[:400])
    edited = configuration.replace('\nfiles = "/boot/firmware"\n', '\nfiles = "/boot/firmware"\npolar = "polar.csv"\n')
    edit(edited)
    without = wait_for(lambda: "no polar targets nor performance" in journal(), 60, step=2)
    count = len(computed_true_wind(output.lines()))
    said = notes(pi)
    check(without and pi.out("cat /etc/telltale/telltale.toml") == edited and "/boot/firmware/polar.csv" in said
          and "was not used" not in said
          and pi.out("head -n 1 /boot/firmware/telltale-error.txt").startswith("telltale.toml on this card was taken")
          and wait_for(lambda: len(computed_true_wind(output.lines())) > count + 5, 60, step=0.5),
          "a telltale.toml naming a polar not on the card: taken, the gateway on it without the polar, computing true "
          "wind, the polar (looked for on the card) named on the panel and beside it on the card",
          said[:400] + journal())
    edit(edited + "\n", polar=open(os.path.join(ROOT, "Fixtures", "demo-voyage", "polar.csv"), "rb").read())
    gone = wait_for(lambda: pi.out("ls /boot/firmware/telltale-error.txt 2>/dev/null") == "", 30, step=2)
    speed = wait_for(lambda: (polar_speed() or 0) > 0, 60, step=2)
    check(gone and speed and "polar.csv" not in notes(pi),
          f"then the polar put beside it: read by the copy the Pi runs (polar speed {polar_speed()} m/s in Signal K), "
          "the note beside it on the card and on the panel gone",
          pi.out("cat /boot/firmware/telltale-error.txt 2>/dev/null") + notes(pi)[:300] + journal())


def boot_partition_late_and_broken(ADAPTER_SERIAL, card, check, key, pi, work):
    """The boot partition late, then broken: the gateway runs on the data partition's configuration and says so."""
    # 5b. The boot partition late, broken, or holding a configuration that does not parse (each on a copy of the card,
    #     which has a data partition with a good configuration by now): the gateway comes up serving NMEA on TCP and
    #     Signal K on what the data partition kept, says what happened on the panel and in its log, and no boot stays in
    #     emergency or rescue mode.
    configuration = pi.out("cat /etc/telltale/telltale.toml")
    pi.shutdown()
    boot_files = EmulatedPi(card, work).boot_files()
    # Late: the card boots with no boot partition in its table; the partition, on a drive of its own, is plugged in once
    # the boot has gone on without it. On it, a telltale.toml that does not parse.
    late = card.copy("card-late.img")
    boot_drive = late.split_boot("boot-late.img")
    boot_drive.put("telltale.toml", "[[input]\nname = unfinished\n")
    pi = EmulatedPi(late, work, key=key, boot_files=boot_files).boot(usb_serials=[("adapter", ADAPTER_SERIAL)])
    feed = SerialFeed(pi.chardevs["adapter"], instruments, rate=10)
    output = OutputReader(pi.nmea, reconnect=True)
    check(pi.wait_ready(), "boot partition late: the Pi boots, SSH answers with the key the data partition kept",
          pi.console()[-2000:])
    pi.out("systemctl is-system-running --wait", timeout=120)
    ok, detail = no_emergency(pi)
    check(ok, "boot partition late: no emergency or rescue mode, the gateway runs", detail + pi.console()[-1500:])
    check(serving(pi, output), "boot partition late: computed true wind on TCP and Signal K, on the data partition's "
          "configuration", pi.out("journalctl -u telltale -b --no-pager | tail -n 8"))
    said = notes(pi)
    logged = pi.out("journalctl -u telltale -b --no-pager | grep -c 'system: The SD card.s boot partition'")
    check("was not there" in said and logged not in ("", "0"),
          "boot partition late: said on the panel (/telltale/v1/notes) and in the gateway's log", said[:300])
    # The configuration names a route on the boot partition: not there yet, no damage (until 2026-12-02 the one before
    # took its place, and kept it once the partition came).
    check(pi.out("cat /etc/telltale/telltale.toml") == configuration and "runs without them" in said
          and pi.out("ls /etc/telltale/telltale.toml.damaged 2>/dev/null") == "",
          "boot partition late: the sailor's configuration kept, its route on the boot partition gone without for now",
          said[:400] + pi.out("journalctl -u telltale-data -b --no-pager | tail -n 6"))
    pid = pi.out("systemctl show -p MainPID --value telltale")
    pi.plug_usb_drive("late", boot_drive.path)
    mounted = wait_for(lambda: pi.out("findmnt -no FSTYPE /boot/firmware") == "vfat", 60, step=2)
    check(mounted, "the boot partition plugged in later is mounted by itself",
          pi.out("journalctl -b --no-pager | grep -i 'telltale-data\\|boot-firmware' | tail -n 8"))
    refused = wait_for(lambda: "was not used" in notes(pi), 30, step=1)
    check(refused and "was not there" not in notes(pi),
          "its telltale.toml that does not parse is refused and said on the panel; the late note is gone", notes(pi)[:300])
    count = len(computed_true_wind(output.lines()))
    check(pi.out("cat /boot/firmware/telltale-error.txt | head -n 1").startswith("telltale.toml on this card was not used")
          and pi.out("systemctl show -p MainPID --value telltale") == pid
          and wait_for(lambda: len(computed_true_wind(output.lines())) > count + 5, 30, step=0.5),
          "the reason written beside it on the card; the gateway runs on, unrestarted, on the configuration it had")
    followed = wait_for(lambda: pi.out("journalctl -u telltale -b --no-pager | grep -c 'route: reloaded /boot/firmware'")
                        not in ("", "0"), 30, step=2)
    check(followed, "the route on the boot partition plugged in later is followed, with no restart",
          pi.out("journalctl -u telltale -b --no-pager | grep route | tail -n 4"))
    edited_on_the_laptop(pi, check, configuration, output)
    feed.stop()
    output.stop()
    pi.shutdown()

    # Broken: the boot partition's first sector zeroed (Linux cannot mount it; the kernel handed to QEMU directly, as the
    # Pi's firmware would still read it), and emergency mode asked for on the kernel's command line: the image's
    # emergency mode goes on to the gateway, and says so, instead of waiting for a keyboard.
    broken = card.copy("card-broken.img")
    # Its configuration (on the data partition) names a polar on the boot partition and a calibration the card cut
    # short: the gateway runs without both on the sailor's configuration (until 2026-12-02 a polar it could not read
    # put the one before, then the image's example, in its place).
    broken.put("polar.csv", open(os.path.join(ROOT, "Fixtures", "demo-voyage", "polar.csv")).read())
    sailor = 'polar = "/boot/firmware/polar.csv"\n' + configuration + CALIBRATION
    broken.put_data("etc/telltale/telltale.toml", sailor)
    broken.put_data("var/lib/telltale/boat-calibration.toml", "[sailing]\nawa_offset = -4.30\nupwash_tws = [6.8, 12")
    broken.break_boot_sector()
    pi = EmulatedPi(broken, work, key=key, boot_files=boot_files, append="systemd.unit=emergency.target").boot(
        usb_serials=[("adapter", ADAPTER_SERIAL)])
    feed = SerialFeed(pi.chardevs["adapter"], instruments, rate=10)
    output = OutputReader(pi.nmea, reconnect=True)
    check(pi.wait_ready(), "boot partition broken: the Pi boots and SSH answers", pi.console()[-2000:])
    wait_for(lambda: pi.out("systemctl is-active telltale") == "active", 120, step=2)
    ok, detail = no_emergency(pi)
    check(ok, "boot partition broken, emergency mode asked for: gone on to the gateway, no shell waiting", detail
          + pi.console()[-1500:])
    check(serving(pi, output), "boot partition broken: computed true wind on TCP and Signal K",
          pi.out("journalctl -u telltale -b --no-pager | tail -n 8"))
    said = notes(pi)
    check("could not be mounted" in said and "emergency mode" in said,
          "both said on the panel: the boot partition could not be mounted; the boot went through emergency mode", said[:400])
    without_files(pi, check, sailor, said)
    check(pi.out("systemctl list-timers --all --no-legend | grep -c telltale-rescue-check") == "1",
          "a reboot is armed for a gateway that would not be running 3 minutes on (it runs: none will come)")
    feed.stop()
    output.stop()
    pi.shutdown()
    return output, pi
