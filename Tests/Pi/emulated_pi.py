"""A Raspberry Pi emulated by qemu-system-aarch64, booting Telltale's own SD-card image: what the image check and the
image benchmark share.

    card = Card.from_image(image, work)            # the image written to a 4 GiB "card" (a sparse file)
    card.put("authorized_keys", key)               # a file onto the boot partition, as a sailor's laptop would
    pi = EmulatedPi(card, work).boot()             # QEMU started; pi.wait_ready() waits for SSH
    pi.ssh("systemctl is-active telltale")
    pi.plug_usb_serial("adapter", serial="TT0001") # an FTDI adapter through the QEMU monitor
    pi.power_cut()                                 # QEMU killed: no shutdown, no sync

The machine is QEMU's `virt` board (cortex-a53, 512 MB, the Pi Zero 2 W's memory) booted with the kernel, initramfs
and kernel command line from the image's own boot partition, the card as a virtio disk, the network through QEMU's
user networking (the panel, TCP 10110 and SSH forwarded to loopback ports) and USB through an xHCI controller that
takes QEMU's FTDI adapters (`usb-serial`), plugged and unplugged through the monitor. QEMU's `raspi3b` board
(`boot(machine="raspi3b")`) runs the Pi 3's own device tree, SD host and UARTs, but boots three times slower here,
and in QEMU 7.2 its mini UART (the GPIO header's) hands Linux only a few bytes of what is written to it; the image
check uses it for what only it can show (see image_check.py).
"""
import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
from support import free_port, wait_for  # noqa: E402

from sd_card import BOOT_OFFSET, CARD_BYTES, MIB, Card  # noqa: E402,F401 (re-exported)


class EmulatedPi:
    """One boot of the card in QEMU. The console goes to `console.log` in `work`; the monitor listens on a Unix
    socket; ports on loopback reach the Pi's panel (web), NMEA TCP (nmea) and SSH (ssh)."""

    def __init__(self, card, work, memory="512M", key=None, boot_files=None, append="", can=True):
        """`boot_files`: (kernel, initrd, command line) to boot with instead of those on the card's boot partition
        (a card whose FAT cannot be read); `append`: words added to the kernel's command line; `can`: two of QEMU's
        emulated CAN controllers (Kvaser PCI cards, an SJA1000 each) on one emulated bus: the Pi's can0 and can1, whose
        frames cross the kernel's real driver (kvaser_pci) both ways."""
        self.card = card
        self.preset_boot_files = boot_files
        self.can = can
        self.append = append
        self.work = work
        self.memory = memory
        self.key = key
        self.web = free_port()
        self.nmea = free_port()
        self.ssh_port = free_port()
        self.monitor_path = os.path.join(work, "monitor.sock")
        self.console_path = os.path.join(work, "console.log")
        self.process = None
        self.started = None
        self.chardevs = {}

    def boot_files(self):
        """The kernel, initramfs and command line from the card's own boot partition."""
        listing = self.card.list()
        kernel = sorted(n for n in listing if n.startswith("vmlinuz-"))[-1]
        initrd = sorted(n for n in listing if n.startswith("initrd.img-"))[-1]
        paths = {}
        for name in (kernel, initrd):
            path = os.path.join(self.work, name)
            with open(path, "wb") as f:
                f.write(self.card.get(name))
            paths[name] = path
        cmdline = self.card.get("cmdline.txt").decode().strip()
        return paths[kernel], paths[initrd], cmdline

    def boot(self, usb_serials=(), machine="virt"):
        """Powers the Pi on. `virt`: the board described above. `raspi3b`: QEMU's Raspberry Pi 3 with the image's own
        kernel and device tree (bcm2837-rpi-3-b.dtb), the card on the Pi's SD host, the network through a USB
        Ethernet adapter, and the GPIO header's UART (the mini UART) on a chardev named `gpio-uart`."""
        kernel, initrd, cmdline = self.preset_boot_files or self.boot_files()
        if os.path.exists(self.monitor_path):
            os.unlink(self.monitor_path)
        forwards = (f"hostfwd=tcp:127.0.0.1:{self.web}-:3000,hostfwd=tcp:127.0.0.1:{self.nmea}-:10110,"
                    f"hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22")
        # The Pi's own command line, with the emulated board's console on its PL011 added (the image has none).
        arguments = ["qemu-system-aarch64", "-nographic", "-no-reboot", "-kernel", kernel, "-initrd", initrd,
                     "-append", cmdline + " console=ttyAMA0" + (" " + self.append if self.append else ""), "-monitor", f"unix:{self.monitor_path},server,nowait",
                     "-serial", f"file:{self.console_path}"]
        if machine == "raspi3b":
            dtb = os.path.join(self.work, "bcm2837-rpi-3-b.dtb")
            with open(dtb, "wb") as f:
                f.write(self.card.get("bcm2837-rpi-3-b.dtb"))
            arguments += ["-M", "raspi3b", "-dtb", dtb, "-drive", f"file={self.card.path},if=sd,format=raw"]
            arguments += self.serial_chardev("gpio-uart") + ["-serial", "chardev:gpio-uart"]
            arguments += ["-usb", "-netdev", f"user,id=net,{forwards}", "-device", "usb-net,netdev=net"]
        else:
            arguments += [
                "-M", "virt", "-cpu", "cortex-a53", "-smp", "2", "-m", self.memory,
                "-drive", f"file={self.card.path},if=none,format=raw,id=card", "-device", "virtio-blk-pci,drive=card",
                "-netdev", f"user,id=net,{forwards}", "-device", "virtio-net-pci,netdev=net",
                "-device", "qemu-xhci,id=xhci",
            ]
            if self.can:
                arguments += ["-object", "can-bus,id=canbus0", "-device", "kvaser_pci,canbus=canbus0",
                              "-device", "kvaser_pci,canbus=canbus0"]
            for name, serial in usb_serials:
                arguments += self.serial_chardev(name)
                arguments += ["-device", f"usb-serial,chardev={name},id={name},serial={serial}"]
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=open(os.path.join(self.work, "qemu.log"), "a"))
        self.started = time.monotonic()
        wait_for(lambda: os.path.exists(self.monitor_path), 10)
        return self

    def serial_chardev(self, name):
        """A chardev that a test writes bytes into: a TCP server QEMU listens on, on loopback."""
        port = free_port()
        self.chardevs[name] = port
        return ["-chardev", f"socket,id={name},host=127.0.0.1,port={port},server=on,wait=off"]

    def monitor(self, command):
        """One QEMU monitor command; its answer."""
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(self.monitor_path)
        sock.settimeout(3)

        def drain():
            data = b""
            try:
                while not data.endswith(b"(qemu) "):
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            except socket.timeout:
                pass
            return data

        drain()
        sock.sendall(command.encode() + b"\n")
        answer = drain().decode(errors="replace")
        sock.close()
        return answer

    def plug_usb_serial(self, name, serial):
        """An FTDI USB-serial adapter plugged in (device_add); its chardev made the first time."""
        if name not in self.chardevs:
            port = free_port()
            self.chardevs[name] = port
            self.monitor(f"chardev-add socket,id={name},host=127.0.0.1,port={port},server=on,wait=off")
        return self.monitor(f"device_add usb-serial,chardev={name},id={name},serial={serial},bus=xhci.0")

    def plug_usb_drive(self, name, path):
        """A drive (a raw disk image) plugged in through USB (drive_add, then device_add usb-storage)."""
        self.monitor(f"drive_add 0 if=none,file={path},format=raw,id={name}")
        return self.monitor(f"device_add usb-storage,drive={name},id={name},bus=xhci.0")

    def unplug(self, name):
        return self.monitor(f"device_del {name}")

    def ssh(self, command, timeout=60):
        """A command run on the Pi as root over SSH (the key put on the boot partition); (status, output). No end
        within `timeout` is status 124, not an exception (a first boot's silent SSH ended a CI's image-check there)."""
        try:
            result = subprocess.run(
                ["ssh", "-q", "-i", self.key, "-p", str(self.ssh_port), "-o", "StrictHostKeyChecking=no",
                 "-o", "UserKnownHostsFile=/dev/null", "-o", "ConnectTimeout=5", "-o", "BatchMode=yes",
                 "root@127.0.0.1", command],
                capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return 124, f"ssh: no answer in {timeout} s"
        return result.returncode, result.stdout + result.stderr

    def out(self, command, timeout=60):
        return self.ssh(command, timeout)[1].strip()

    def put(self, path, data, timeout=60):
        """Writes `data` (bytes) to `path` on the Pi, over SSH; True when it was written."""
        result = subprocess.run(
            ["ssh", "-q", "-i", self.key, "-p", str(self.ssh_port), "-o", "StrictHostKeyChecking=no",
             "-o", "UserKnownHostsFile=/dev/null", "-o", "ConnectTimeout=5", "-o", "BatchMode=yes",
             "root@127.0.0.1", f"cat > {path}"], input=data, capture_output=True, timeout=timeout)
        return result.returncode == 0

    def wait_ready(self, seconds=240):
        """Waits until SSH answers; False if it never did."""
        return wait_for(lambda: self.alive() and self.ssh("true", timeout=15)[0] == 0, seconds, step=2)

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def power_cut(self):
        """The power goes: QEMU killed at once, nothing flushed."""
        if self.alive():
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def shutdown(self, seconds=90):
        """A clean shutdown from inside (systemctl poweroff); QEMU exits when the Pi is off."""
        if not self.alive():
            return True
        self.ssh("systemctl poweroff", timeout=15)
        try:
            self.process.wait(seconds)
            return True
        except subprocess.TimeoutExpired:
            self.power_cut()
            return False

    def wait_exit(self, seconds):
        """Waits for QEMU to end by itself (a reboot of the Pi ends it: -no-reboot); True if it did."""
        try:
            self.process.wait(seconds)
            return True
        except subprocess.TimeoutExpired:
            return False

    def console(self):
        try:
            with open(self.console_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""


class SerialFeed:
    """Writes NMEA sentences into a QEMU chardev (a TCP server on loopback) from a thread, over and over, reconnecting
    when the device behind it goes and comes back."""

    def __init__(self, port, lines, rate=10.0):
        self.port = port
        self.lines = lines
        self.rate = rate
        self.sent = 0
        self.last_sent = None
        self._stop = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        index = 0
        while not self._stop.is_set():
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=2)
            except OSError:
                time.sleep(0.2)
                continue
            try:
                while not self._stop.is_set():
                    line = self.lines(index) if callable(self.lines) else self.lines[index % len(self.lines)]
                    sock.sendall(line)
                    index += 1
                    self.sent += 1
                    self.last_sent = time.time()
                    time.sleep(1 / self.rate)
            except OSError:
                time.sleep(0.2)
            finally:
                sock.close()

    def stop(self):
        self._stop.set()


def image_path(root):
    """The image `make image` built for this version, or None."""
    version = None
    with open(os.path.join(root, "Sources/Gateway/Configuration/Version.swift")) as f:
        for line in f:
            if "static let string" in line:
                version = line.split('"')[1]
    path = os.path.join(root, ".build-image", f"telltale-{version}-arm64.img")
    return path if os.path.exists(path) else None


def make_key(work):
    key = os.path.join(work, "id_ed25519")
    if not os.path.exists(key):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key], check=True)
    with open(key + ".pub") as f:
        return key, f.read()


def scratch(prefix):
    """A work folder for the cards and keys of one run (each card is gigabytes), removed when the run ends, however it
    ends (an exception, SIGTERM, SIGINT). Folders of the same name that an earlier run killed with SIGKILL left behind
    (untouched for three hours: a run takes minutes) are removed first."""
    base = tempfile.gettempdir()
    for name in os.listdir(base):
        path = os.path.join(base, name)
        try:
            stale = time.time() - os.stat(path).st_mtime > 3 * 3600
        except OSError:
            continue
        if name.startswith(prefix) and os.path.isdir(path) and stale:
            shutil.rmtree(path, ignore_errors=True)
    work = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, work, ignore_errors=True)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda number, frame: sys.exit(128 + number))
    return work
