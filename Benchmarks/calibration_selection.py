#!/usr/bin/env python3
"""Which parts of a calibration to apply, chosen by the days learnt from (#50): measured, not what the learner does.

Usage: calibration_selection.py [--before] TELLTALE LOG...

The question: would a learner that applies only the parts that helped on days it had not seen do better on the next
day than one that applies every part it is sure of? For each day held out (or, with `--before`, each day judged by
the days before it), the days learnt from are themselves cross-validated: each of them held out in turn, learnt on
the rest, and its tacks judged with every subset of the calibration's parts (the offset, the upwash, the upwash by
wind speed, the log's factor, the log's steps, the compass card: 64 subsets). The subset with the smallest median
tack jump over those inner days (the fewest parts on a tie) is the one applied to the day held out. Pooled over the
days held out: the tack bias and median jump, against uncalibrated. About 5 minutes on two cores (some 200 learnings).
"""

import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from calibration_crossval import by_day, figures, signed

PARTS = {
    "offset": ("awa_offset",),
    "upwash": ("upwash_upwind =", "upwash_downwind =", "upwash_reach ="),
    "upwash by wind speed": ("upwash_tws", "upwash_upwind_by", "upwash_downwind_by"),
    "log factor": ("speed_factor", "speed_side"),
    "log steps": ("log_step",),
    "card": ("deviation",),
}
NAMES = list(PARTS)
SUBSETS = [kept for n in range(len(NAMES) + 1) for kept in itertools.combinations(NAMES, n)]


class Selection:
    def __init__(self, telltale, days, before):
        self.telltale, self.days, self.before = telltale, days, before
        self.work = tempfile.mkdtemp(prefix="telltale-selection-")

    def learnt(self, key, learnt_from):
        """The lines of the file learnt on the days `learnt_from` (learnt once, kept under `key`)."""
        path = os.path.join(self.work, key + ".toml")
        if not os.path.exists(path):
            logs = [log for day in learnt_from for log in self.days[day]]
            subprocess.run([self.telltale, "calibrate", "sailing", *logs, "--output", path], check=True,
                           stdout=subprocess.DEVNULL)
        with open(path) as f:
            return f.read().splitlines()

    def tacks(self, day, lines, kept, key):
        """The day's tacks' signed jumps, calibrated by `lines` with only the parts `kept`, and uncalibrated."""
        dropped = tuple(p for name in NAMES if name not in kept for p in PARTS[name])
        path = os.path.join(self.work, key + "-judged.toml")
        with open(path, "w") as f:
            f.write("\n".join(line for line in lines if not (dropped and line.startswith(dropped))) + "\n")
        judged = json.loads(subprocess.run([self.telltale, "calibrate", "sailing", *self.days[day], "--judge", path,
                                            "--json"], check=True, capture_output=True).stdout)["manoeuvres"]
        tacks = [m for m in judged if m["kind"] == "tack"]
        return ([(day, signed(m, "_calibrated")) for m in tacks if signed(m, "_calibrated") is not None],
                [(day, signed(m, "")) for m in tacks if signed(m, "") is not None])

    def others(self, day, among):
        return [d for d in among if (d < day if self.before else d != day)]

    def judged(self, day):
        learnt_from = self.others(day, sorted(self.days))
        if len(learnt_from) < 2:
            return None
        score = {}
        for kept in SUBSETS:
            jumps = []
            for inner in learnt_from:
                inner_from = self.others(inner, learnt_from)
                if inner_from:
                    jumps += self.tacks(inner, self.learnt(f"{day}-{inner}", inner_from), kept, f"{day}-{inner}")[0]
            score[kept] = statistics.median(abs(v) for _, v in jumps) if jumps else float("inf")
        best = min(SUBSETS, key=lambda kept: (score[kept], len(kept)))
        print(f"{day}: {' + '.join(best) or 'nothing'} (on the days learnt from, each held out: median jump "
              f"{score[best]:.2f}°, uncalibrated {score[()]:.2f}°)", flush=True)
        return self.tacks(day, self.learnt(day, learnt_from), best, day)


def main():
    before = sys.argv[1] == "--before"
    telltale, days = sys.argv[1 + before], by_day(sys.argv[2 + before:])
    selection = Selection(telltale, days, before)
    with ThreadPoolExecutor(2) as pool:
        results = [r for r in pool.map(selection.judged, sorted(days)) if r]
    calibrated = figures([x for c, _ in results for x in c])
    uncalibrated = figures([x for _, u in results for x in u])
    print(f"tacks judged on the day {'after the days learnt' if before else 'held out'}: uncalibrated "
          f"{uncalibrated[0]:+.1f}° (jump {uncalibrated[2]:.1f}°) · the chosen parts {calibrated[0]:+.1f}° ± "
          f"{calibrated[1]:.1f} (jump {calibrated[2]:.1f}°, {calibrated[2] / uncalibrated[2]:.2f} ×)")


if __name__ == "__main__":
    main()
