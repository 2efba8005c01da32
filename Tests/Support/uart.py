"""What a UART reading at one speed makes of 8N1 serial sent at another: the line (1 when idle) built bit by bit at
the sender's rate and sampled as a receiver samples it, from each falling edge, mid-bit at its own rate. At the same
speed it reads the text back whole; an AIS receiver's 38,400 baud read at 4,800 gives a few bytes a second of
garbage that never holds a line end or a `$`."""


def line_bits(text, baud, per_second):
    """`text` (bytes, one sentence each) sent at `baud`, `per_second` of them spread over a second: the line's bits."""
    bits = [1]
    slot = baud // max(1, per_second)
    for sentence in text:
        frame = []
        for byte in sentence:
            frame.append(0)
            frame.extend((byte >> k) & 1 for k in range(8))
            frame.append(1)
        bits += frame + [1] * max(0, slot - len(frame))
    return bits


def misread(sentences, sent_baud, read_baud):
    """The bytes a receiver at `read_baud` reads of `sentences` (a second's worth) sent at `sent_baud`."""
    bits = line_bits(sentences, sent_baud, len(sentences))
    ratio = sent_baud / read_baud
    out = bytearray()
    i, n = 1, len(bits)
    while i < n:
        if bits[i] == 0 and bits[i - 1] == 1:
            value = 0
            for k in range(8):
                at = int(i + ratio * (1.5 + k))
                if at >= n:
                    return bytes(out)
                value |= bits[at] << k
            out.append(value)
            i = int(i + ratio * 9.5) + 1
        else:
            i += 1
    return bytes(out)
