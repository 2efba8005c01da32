"""SD-card wear of the whole gateway (#40): bytes the kernel writes to the state file system an hour, the bench
profile (the demo voyage in real time, [web] on, so the history is kept), recording off; the uplink off, then on (to
Debian's mosquitto on loopback, default rates). The state folder is ext4 of its own on a loop device, mounted
noatime as the image's data partition is; what is counted is every sector written to it (data, journal, metadata).
Needs root.

    python3 Benchmarks/wear.py BINARY [SECONDS]
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
from support import Gateway, ROOT, free_port, wait_for, demo_input  # noqa: E402

binary = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 300
demo = os.path.join(ROOT, "Fixtures", "demo-voyage")


def run(*command):
    return subprocess.run(command, check=True, capture_output=True, text=True)


def measure(uplink):
    work = tempfile.mkdtemp(prefix="telltale-wear-")
    disk = os.path.join(work, "state.ext4")
    with open(disk, "wb") as f:
        f.truncate(64 << 20)
    run("mkfs.ext4", "-q", "-F", disk)
    mount = os.path.join(work, "state")
    os.makedirs(mount)
    loop = run("losetup", "--find", "--show", disk).stdout.strip()
    run("mount", "-o", "noatime", loop, mount)
    broker = None
    extra = ""
    if uplink:
        port = free_port()
        open(os.path.join(work, "mq.conf"), "w").write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        broker = subprocess.Popen(["mosquitto", "-c", os.path.join(work, "mq.conf")], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        extra = f'[uplink]\nbroker = "mqtt://127.0.0.1:{port}"\nboat = "wear"\n'
    web = free_port()
    gateway = Gateway(binary, f"""status_line = false
state_file = "{mount}/state.toml"
{demo_input('demo', loop=True)}[web]
listen = "127.0.0.1:{web}"
""" + extra, work=work).start(wait=[web])
    if uplink:
        wait_for(lambda: "uplink: connected" in gateway.log(), 20)
    # Past the first minute: the day's history file is laid out (256 KB of zeros, once every four hours or so at
    # the default paths, said apart below) and the steady hour is what is counted.
    time.sleep(65)
    stat = f"/sys/block/{os.path.basename(loop)}/stat"

    def written():
        return int(open(stat).read().split()[6]) * 512
    before, start = written(), time.monotonic()
    time.sleep(seconds)
    after, elapsed = written(), time.monotonic() - start
    gateway.stop()
    if broker:
        broker.terminate()
    history = sum(os.path.getsize(os.path.join(mount, "history", n)) for n in os.listdir(os.path.join(mount, "history")))
    run("umount", mount)
    run("losetup", "-d", loop)
    return (after - before) * 3600 / elapsed, history


for uplink in (False, True):
    per_hour, history = measure(uplink)
    print(f"uplink {'on ' if uplink else 'off'}: {per_hour / 1e6:.2f} MB written to the card an hour in steady state "
          f"(the history's day file laid out ahead: {history / 1024:.0f} KB, written once each 256 KB of history)")
