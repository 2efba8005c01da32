#!/usr/bin/env bash
# Serial through libserialport on a pseudo-terminal, the way DEVELOPERS' notes describe it: a private mount namespace
# with tmpfs over /sys/class/tty and /dev/shm, the pty bind-mounted at /dev/shm/ttyV0 with a sysfs entry for it, and
# a preload shim answering the modem-line ioctls ptys lack.
#  1. data written to the pty reaches telltale's TCP output;
#  2. the pty is closed (unplugged), a new one bind-mounted in its place (replugged), and data flows again without
#     restarting telltale.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" = 0 ] || { echo "serial-check: needs root for the mount namespace"; exit 1; }
mkdir -p .build-interop
gcc -shared -fPIC -O2 Tests/Interop/serial-shim.c -o .build-interop/serial-shim.so -ldl
python3 - "$PWD" <<'PY'
import os, pty, socket, subprocess, sys, time

root = sys.argv[1]
binary = f"{root}/.build/release/telltale"
shim = f"{root}/.build-interop/serial-shim.so"
probe = socket.socket(); probe.bind(("127.0.0.1", 0)); port = probe.getsockname()[1]; probe.close()

def checksum(body):
    value = 0
    for c in body.encode():
        value ^= c
    return f"${body}*{value:02X}\r\n".encode()

master, slave = pty.openpty()
setup = (
    "set -e; mount -t tmpfs none /sys/class/tty; mount -t tmpfs none /dev/shm; "
    "mkdir -p /sys/class/tty/shm/ttyV0; ln -s ../../../devices/platform/serial8250/tty/ttyV0 /sys/class/tty/shm/ttyV0/device; "
    f"touch /dev/shm/ttyV0; mount --bind {os.ttyname(slave)} /dev/shm/ttyV0; "
    f"exec env LD_PRELOAD={shim} {binary} run --input 'serial:///dev/shm/ttyV0?baud=4800' "
    f"--output tcp://127.0.0.1:{port}"
)
os.close(slave)
gateway = subprocess.Popen(["unshare", "-m", "--propagation", "private", "bash", "-c", setup],
                           stderr=open(f"{root}/.build-interop/serial-telltale.log", "w"))

def connect():
    for _ in range(100):
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=0.2)
        except OSError:
            time.sleep(0.1)
    raise SystemExit("serial-check: telltale did not start")

def exchange(fd, client, marker, seconds=3.0):
    """Writes HDT sentences carrying `marker` and counts how many come out."""
    client.settimeout(0.05)
    data = b""
    end = time.time() + seconds
    n = 0
    while time.time() < end:
        try:
            os.write(fd, checksum(f"HEHDT,{marker}.{n % 10},T"))
        except OSError:
            pass
        n += 1
        try:
            data += client.recv(65536)
        except socket.timeout:
            pass
    return sum(1 for line in data.split(b"\r\n") if line.startswith(f"$HEHDT,{marker}.".encode()))

passed = failed = 0
client = connect()
first = exchange(master, client, 111)
if first >= 10:
    print(f"serial data flows through libserialport to TCP ({first} sentences)"); passed += 1
else:
    print(f"serial data did not flow (got {first})"); failed += 1

os.close(master)  # unplugged
time.sleep(1.5)
master2, slave2 = pty.openpty()  # a new device...
subprocess.run(["nsenter", "-t", str(gateway.pid), "-m", "sh", "-c",
                f"umount /dev/shm/ttyV0; mount --bind {os.ttyname(slave2)} /dev/shm/ttyV0"], check=True)
os.close(slave2)  # ...plugged in where the old one was
time.sleep(1.5)
second = exchange(master2, client, 222)
if second >= 10:
    print(f"after unplug and replug, data flows again without a restart ({second} sentences)"); passed += 1
else:
    print(f"no data after replug (got {second})"); failed += 1
gateway.terminate()
gateway.wait(timeout=5)
if failed:
    print(open(f"{root}/.build-interop/serial-telltale.log").read())
print(f"serial-check: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
