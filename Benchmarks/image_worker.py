"""What the image bench's routing and calibration parts share (image_routing.py, image_calibration.py): the daemon's
memory read on the Pi, the engine's late ticks from the journal, and a worker process watched from its request to its
answer.
"""
import json
import re
import time

STALL_MS = 250


def daemon(pi):
    """The gateway daemon's VmRSS and RssAnon (kB), read from /proc on the Pi."""
    pid = pi.out("systemctl show -p MainPID --value telltale")
    fields = dict(line.split(":", 1) for line in pi.out(f"grep -E 'VmRSS|RssAnon' /proc/{pid}/status").splitlines()
                  if ":" in line)
    return {k: int(v.split()[0]) for k, v in fields.items()}


def stalls(pi, since, until):
    """The ticks the engine said ran late (EngineService: a quarter of a second or more) between two of the Pi's UNIX
    times: their count and the largest, as words."""
    late = [float(m) for m in re.findall(r"ran ([0-9.]+) ms late", pi.out(
        f"journalctl -u telltale --no-pager -o cat --since @{since} --until @{until} | grep 'ms late' || true"))]
    return f"{len(late)} (largest {max(late):.0f} ms)" if late else "none"


def watch(pi, request, path, command, finished, since, limit=600):
    """Polls `path` each second from `since` (a monotonic time, the request's) until its state is one of `finished` or
    `limit` seconds pass, reading the daemon's memory each time and the peak VmHWM (kB) of the processes whose command
    line matches `command`. Returns (the daemon's samples, that peak, the last answer)."""
    samples, peak, answer = [], 0, {}
    while time.monotonic() - since < limit:
        samples.append(daemon(pi))
        high = pi.out(f"for p in $(pgrep -f '{command}'); do grep VmHWM /proc/$p/status; done "
                      "| awk '{print $2}' | sort -n | tail -n 1")
        peak = max(peak, int(high) if high.isdigit() else 0)
        status, text = request(path)
        answer = json.loads(text) if status == 200 else {}
        if answer.get("state") in finished:
            break
        time.sleep(1)
    return samples, peak, answer


def say_memory(prefix, groups):
    """One line a group of the daemon's samples, (label, samples): VmRSS and RssAnon, least..most."""
    for label, samples in groups:
        print(f"{prefix}: daemon in {label}: VmRSS {min(s['VmRSS'] for s in samples)}.."
              f"{max(s['VmRSS'] for s in samples)} kB, RssAnon {min(s['RssAnon'] for s in samples)}.."
              f"{max(s['RssAnon'] for s in samples)} kB")
