"""Irene's days sailed as `[calibration] auto = true` would have sailed them, applies after applies.

    calibration_auto_days.py TELLTALE LOG...

`calibration_crossval.py --before` says the first application only (a boat with nothing applied yet). On board, once a
calibration is applied, the learner reads the history since that moment (`--since`), whose values the applied
calibration corrected, and builds on it: what it learns replaces the applied calibration where it is sure, and its
check on the newest days compares the two (the history's values, the applied calibration's, against the newest
learning's). Here, day after day, from the raw logs:

- learnt: `telltale calibrate sailing` on the days since the last apply, its sure values laid over the applied file
  (the parts it is not sure of stay as applied, as the learner's `--applied` base keeps them);
- its check: with nothing applied, the learner's own (`newest_days`); with a calibration applied, the newest days
  judged with the applied file and with the one learnt without them (laid over the applied), by the learner's rule:
  worse when the median jump grows, or the tack bias is left beyond ±2° and larger;
- no day before the newest since the apply (nothing to check on): applied, as the board does (`now`), or held when
  something is applied already (`held`); or (`all`) every day before learnt from, as a learner reading the history's
  raw values would, and its check against the applied;
- the day then judged with whatever is applied.
Prints each day's decision, then the pooled tacks and gybes of each policy against the uncalibrated.
"""
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calibration_crossval import by_day, figures, judge, learn, signed  # noqa: E402

GROUPS = (("upwash_tws", "upwash_upwind_by_tws", "upwash_downwind_by_tws", "upwash_reach_by_tws"),
          ("log_steps", "log_step_ratios", "log_step_wind_ratios"))


def values(path):
    """The [sailing] values of a calibration file, by key (comments left out)."""
    out = {}
    if path is None:
        return out
    with open(path) as f:
        for line in f:
            line = line.strip()
            if "=" in line and not line.startswith("#"):
                key = line.split("=", 1)[0].strip()
                out[key] = line
    return out


def laid_over(learnt, applied, path):
    """The learnt file's sure values over the applied file's (a group of keys as one), written to `path`."""
    new, out = values(learnt), values(applied)
    for key in new:
        group = next((g for g in GROUPS if key in g), (key,))
        for k in group:
            out.pop(k, None)
    out.update(new)
    with open(path, "w") as f:
        f.write("[sailing]\n" + "\n".join(out.values()) + "\n")
    return path


def judged(telltale, logs, path):
    """The (kind, signed jump) of each tack and gybe of `logs` with the calibration file `path`."""
    return [(m["kind"], signed(m, "_calibrated"), signed(m, "")) for m in judge(telltale, logs, path)
            if m["kind"] in ("tack", "gybe") and signed(m, "_calibrated") is not None]


def worse(with_new, with_applied):
    """The learner's rule (NewestDaysCheck): the tacks' median jump larger, or their bias beyond ±2° and larger."""
    new = [v for k, v, _ in with_new if k == "tack"]
    old = [v for k, v, _ in with_applied if k == "tack"]
    if not new or not old:
        return False
    jump = statistics.median(abs(v) for v in new) > statistics.median(abs(v) for v in old)
    bias_new, bias_old = statistics.median(new), statistics.median(old)
    return jump or abs(bias_new) > max(2.0, abs(bias_old))


def sail(telltale, days, policy, work, nothing):
    """Each day's manoeuvres as the policy sails them: {kind: [(day, signed)]}, and the log of decisions."""
    applied, since, sailed, said = None, None, {"tack": [], "gybe": []}, []
    order = sorted(days)
    for index, day in enumerate(order):
        window = [d for d in order[:index] if since is None or d >= since or policy == "all"]
        if window:
            base = os.path.join(work, f"{policy}-{day}-learnt.toml")
            report = learn(telltale, [log for d in window for log in days[d]], base)
            over = None if policy == "all" else applied
            candidate = laid_over(base, over, os.path.join(work, f"{policy}-{day}.toml"))
            check = report.get("newest_days") or {}
            newest = [d for d in window if check and d >= check.get("from", "")[:10]]
            earlier = [d for d in window if d not in newest]
            if applied is None:
                hold, why = check.get("says") == "worse", "its own check"
            elif not check or not earlier:
                hold, why = policy == "held", "nothing since the apply to check it on"
            else:
                without = os.path.join(work, f"{policy}-{day}-without.toml")
                learn(telltale, [log for d in earlier for log in days[d]], without)
                laid = laid_over(without, over, os.path.join(work, f"{policy}-{day}-without-over.toml"))
                logs = [log for d in newest for log in days[d]]
                hold, why = worse(judged(telltale, logs, laid), judged(telltale, logs, applied)), "against the applied"
            if not hold:
                applied, since = candidate, day
            said.append(f"{day}: learnt on {len(window)} days, {'held' if hold else 'applied'} ({why})")
        for kind, value, _ in judged(telltale, days[day], applied or nothing):
            sailed[kind].append((day, value))
    return sailed, said


def main():
    telltale, days = sys.argv[1], by_day(sys.argv[2:])
    work = tempfile.mkdtemp()
    nothing = os.path.join(work, "nothing.toml")
    with open(nothing, "w") as f:
        f.write("[sailing]\n")
    raw = {"tack": [], "gybe": []}
    for day in sorted(days)[1:]:
        for kind, _, value in judged(telltale, days[day], nothing):
            raw[kind].append((day, value))
    for policy in ("now", "held", "all"):
        sailed, said = sail(telltale, days, policy, work, nothing)
        print(f"policy {policy}:\n  " + "\n  ".join(said))
        for kind in ("tack", "gybe"):
            first = sorted(days)[0]
            u, a = figures(raw[kind]), figures([p for p in sailed[kind] if p[0] != first])
            if u and a:
                print(f"  {kind}s: uncalibrated {u[0]:+.1f}° (jump {u[2]:.1f}°), as auto sails them {a[0]:+.1f}° ± "
                      f"{a[1]:.1f} (jump {a[2]:.1f}°, {a[2] / u[2]:.2f} ×)", flush=True)


if __name__ == "__main__":
    main()
