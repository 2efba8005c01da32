"""What the store holds against what the load generator was told: each acknowledged batch once, nothing else.

A batch sent with QoS 1 whose acknowledgement never came (the broker restarted under it, or the sender's last wait
ran out) may still be in the store: MQTT promises it at least once, not that the sender hears of it. Such a batch is
allowed, once; any other batch stored and never acknowledged is extra.
"""


def tally(rows, acked, unanswered):
    """rows: (boat, seq, count) from the store; acked and unanswered: {boat: [seq]} from fleet_load.py's report."""
    have = {}
    twice = []
    for boat, seq, count in rows:
        have.setdefault(boat, set()).add(int(seq))
        if int(count) != 1:
            twice.append((boat, seq, count))
    missing = {}
    extra = {}
    for boat, seqs in acked.items():
        held = have.get(boat, set())
        if set(seqs) - held:
            missing[boat] = sorted(set(seqs) - held)[:5]
        beyond = held - set(seqs) - set(unanswered.get(boat, []))
        if beyond:
            extra[boat] = sorted(beyond)[:5]
    late = sum(len(have.get(boat, set()) & set(seqs)) for boat, seqs in unanswered.items())
    return {"have": have, "twice": twice, "missing": missing, "extra": extra, "storedUnacknowledged": late}
