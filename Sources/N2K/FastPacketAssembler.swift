/// Fast packets put back together: a message of 9 to 223 bytes sent as frames of 8, the first frame's byte 0 holding
/// a 3-bit sequence id and a 5-bit frame counter, its byte 1 the length, 6 data bytes after it and 7 in each frame
/// after. Per sender and PGN (several senders interleave on a bus, and one sender several PGNs); frames may come out
/// of order; a message missing a frame for `timeout` seconds is given up. Bounded whatever the bus sends: at most
/// `capacity` messages under way (the oldest given up for a new one), each of at most 223 bytes.
public struct FastPacketAssembler: Sendable {
    public struct Counters: Hashable, Sendable {
        public var completed = 0
        /// Messages given up: a frame missing past the timeout, a new sequence before the old was whole, no room.
        public var abandoned = 0
        /// Frames that fit no message under way (its first frame missed), or said an impossible length.
        public var orphans = 0
        public var malformed = 0
    }

    private struct Slot {
        var source: UInt8
        var pgn: UInt32
        var sequence: UInt8
        var priority: UInt8
        var destination: UInt8
        var length: Int
        var frames: UInt32
        var expected: Int
        var started: Double
        var bytes: [UInt8]
        var inUse = false
    }

    public static let maximumLength = 223
    public let capacity: Int
    public let timeout: Double
    public private(set) var counters = Counters()
    private var slots: [Slot]

    public init(capacity: Int = 32, timeout: Double = 0.75) {
        self.capacity = max(capacity, 1)
        self.timeout = timeout
        slots = Array(
            repeating: Slot(
                source: 0, pgn: 0, sequence: 0, priority: 0, destination: 0, length: 0, frames: 0, expected: 0,
                started: 0, bytes: Array(repeating: 0, count: Self.maximumLength)),
            count: self.capacity)
    }

    public var underWay: Int { slots.reduce(0) { $0 + ($1.inUse ? 1 : 0) } }

    /// One frame of a fast-packet PGN, at `time` (seconds); the message when it is whole.
    public mutating func feed(_ frame: CANFrame, at time: Double) -> N2KMessage? {
        expire(at: time)
        guard frame.count >= 2 else {
            counters.malformed += 1
            return nil
        }
        let identifier = frame.identifier
        let counter = Int(frame[0] & 0x1F)
        let sequence = frame[0] >> 5
        if counter == 0 {
            let length = Int(frame[1])
            guard length >= 1, length <= Self.maximumLength else {
                counters.malformed += 1
                return nil
            }
            let index = slot(for: identifier.source, identifier.pgn, at: time)
            if slots[index].inUse { counters.abandoned += 1 }
            slots[index].inUse = true
            slots[index].source = identifier.source
            slots[index].pgn = identifier.pgn
            slots[index].sequence = sequence
            slots[index].priority = identifier.priority
            slots[index].destination = identifier.destination
            slots[index].length = length
            slots[index].expected = length <= 6 ? 1 : 1 + (length - 6 + 6) / 7
            slots[index].frames = 1
            slots[index].started = time
            for byte in 0..<min(6, length) { slots[index].bytes[byte] = frame[2 + byte] }
            return finish(index)
        }
        guard
            let index = slots.firstIndex(where: {
                $0.inUse && $0.source == identifier.source && $0.pgn == identifier.pgn && $0.sequence == sequence
            })
        else {
            counters.orphans += 1
            return nil
        }
        guard counter < slots[index].expected, counter < 32 else {
            counters.malformed += 1
            return nil
        }
        let start = 6 + (counter - 1) * 7
        for byte in 0..<7 where start + byte < slots[index].length {
            slots[index].bytes[start + byte] = frame[1 + byte]
        }
        slots[index].frames |= 1 << UInt32(counter)
        return finish(index)
    }

    /// Gives up the messages missing a frame for longer than the timeout.
    public mutating func expire(at time: Double) {
        for index in slots.indices where slots[index].inUse && time - slots[index].started > timeout {
            slots[index].inUse = false
            counters.abandoned += 1
        }
    }

    private mutating func finish(_ index: Int) -> N2KMessage? {
        let slot = slots[index]
        let all: UInt32 = slot.expected >= 32 ? .max : (1 << UInt32(slot.expected)) - 1
        guard slot.frames & all == all else { return nil }
        slots[index].inUse = false
        counters.completed += 1
        return N2KMessage(
            pgn: slot.pgn, priority: slot.priority, source: slot.source, destination: slot.destination,
            payload: N2KPayload(slot.bytes[0..<slot.length]))
    }

    /// The slot for a new message: this sender's and PGN's own, else a free one, else the oldest (given up).
    private func slot(for source: UInt8, _ pgn: UInt32, at time: Double) -> Int {
        if let same = slots.firstIndex(where: { $0.inUse && $0.source == source && $0.pgn == pgn }) { return same }
        if let free = slots.firstIndex(where: { !$0.inUse }) { return free }
        var oldest = 0
        for index in slots.indices where slots[index].started < slots[oldest].started { oldest = index }
        return oldest
    }
}
