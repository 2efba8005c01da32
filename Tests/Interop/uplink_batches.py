"""Section 1 of the uplink check (uplink_check.py): every batch the gateway made arrived at the subscriber ashore,
exactly once once kept, whole but for what it says was thinned, every alarm in it, in order; each value's topic in
order."""
import json


def every_batch(check, lines, history, killed_at):
    """`lines`: every message the subscriber got ({"topic", "payload", "retain", "at"}); `history`: the history
    topic's messages with their batches; `killed_at`: when the gateway was killed (its voyage plays again after)."""
    unique = {}
    order = []
    duplicates = 0
    consistent = True
    after_restart = set()
    for message, batch in history:
        seq = batch["seq"]
        if message["at"] > killed_at:
            after_restart.add(seq)
        if seq in unique:
            duplicates += 1
            # A repeat is the batch sent again (perhaps thinned since): the same count, its samples among the first's or
            # the first's among its.
            first = unique[seq]
            a = {(x["path"], x["timestamp"]) for x in first["samples"]}
            b = {(x["path"], x["timestamp"]) for x in batch["samples"]}
            consistent = consistent and first["count"] == batch["count"] and (a <= b or b <= a)
            continue
        unique[seq] = batch
        order.append(seq)
    numbers = sorted(unique)
    check(numbers and numbers[0] == 1 and numbers == list(range(1, numbers[-1] + 1)),
          f"every batch made arrived: numbers 1..{numbers[-1] if numbers else 0}, no gap "
          f"({duplicates} sent again and kept once)", str([n for n in range(1, (numbers or [0])[-1]) if n not in unique][:10]))
    check(consistent, "each batch sent again is the same batch (its count, its samples)")
    before_kill = [n for n in numbers if n not in after_restart]
    check(len(numbers) >= 45 and any(n > max(before_kill or [0]) for n in after_restart),
          f"after SIGKILL and a restart the numbers go on from before it ({len(numbers)} batches in about 110 s)")
    check(order == sorted(order), "in order: the batches' numbers rise as they arrive (repeats aside)")
    whole = all(len(b["samples"]) == b["count"] - b["thinned"] for b in unique.values())
    samples = sum(len(b["samples"]) for b in unique.values())
    thinned = sum(b["thinned"] for b in unique.values())
    made = sum(b["count"] for b in unique.values())
    check(whole and samples + thinned == made,
          f"every sample arrived or is counted as thinned: {samples} arrived + {thinned} thinned = {made} taken")
    alarms_kept = all(sum(1 for s in b["samples"] if s["path"].startswith("notifications.")) == b["alarms"]
                      for b in unique.values())
    alarm_count = sum(b["alarms"] for b in unique.values())
    check(alarms_kept and alarm_count > 0, f"every alarm arrived, none thinned ({alarm_count} alarm samples)")
    late = [b for b in unique.values() if b["late"]]
    check(len(late) >= 3, f"the batches made while the link was down arrive marked late ({len(late)})")
    check(thinned > 0, f"the 40 s cut filled the 50 KB queue: its oldest samples thinned ({thinned}), alarms kept")
    timestamps_ok = all(all(isinstance(s["timestamp"], str) and s["timestamp"].endswith("Z") for s in b["samples"])
                        for b in unique.values())
    check(timestamps_ok, "each sample with its own time (RFC 3339 UTC)")

    # Order per topic: each value's topic carries its samples' times rising (within each run of the gateway: the voyage
    # plays from its start again after the restart).
    skip = ("history", "online", "goodbye", "alarms", "commands", "commands/result")
    out_of_order = []
    for part in ([m for m in lines if m["at"] < killed_at], [m for m in lines if m["at"] >= killed_at]):
        last = {}
        for m in part:
            topic = m["topic"].split("/", 2)[2]
            if topic in skip or m["retain"]:
                continue
            stamp = json.loads(m["payload"]).get("timestamp", "")
            if stamp < last.get(topic, ""):
                out_of_order.append((topic, last[topic], stamp))
            last[topic] = stamp
    live = sum(1 for m in lines if not m["retain"] and m["topic"].split("/", 2)[2] not in skip)
    check(live > 500 and not out_of_order, f"order kept per topic: {live} live values, none older than the one before",
          str(out_of_order[:3]))
