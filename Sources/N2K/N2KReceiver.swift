/// The bus's frames into whole messages: a single-frame PGN as it comes, a fast packet (canboat's database says
/// which PGNs are) reassembled, an ISO transport session reassembled and, when it is to this node, answered. Sans-I/O:
/// frames and their times in, messages and the frames to send back out. Bounded: see ``FastPacketAssembler`` and
/// ``IsoTransport``.
public struct N2KReceiver: Sendable {
    public private(set) var fast = FastPacketAssembler()
    public private(set) var transport = IsoTransport()
    /// Frames with no data, or a standard (11-bit) identifier, which NMEA 2000 does not use.
    public private(set) var refused = 0
    public private(set) var frames = 0

    public init() {}

    /// Whether a PGN is sent as a fast packet.
    public static func isFastPacket(_ pgn: UInt32) -> Bool {
        var low = 0
        var high = CanboatPGNs.fastPackets.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let value = CanboatPGNs.fastPackets[middle]
            if value == pgn { return true }
            if value < pgn { low = middle + 1 } else { high = middle - 1 }
        }
        return false
    }

    /// One frame at `time` (seconds); `own`: this node's address, to answer transport sessions to it. `body` takes the
    /// whole message, if any; the frames to send back (a transport session's clear-to-send and acknowledgement) are
    /// added to `replies`.
    public mutating func feed(
        _ frame: CANFrame, own: UInt8?, at time: Double, replies: inout [CANFrame], _ body: (N2KMessage) -> Void
    ) {
        frames += 1
        guard frame.count > 0 else {
            refused += 1
            return
        }
        let pgn = frame.identifier.pgn
        if pgn == IsoTransport.connectionManagement || pgn == IsoTransport.dataTransfer {
            let outcome = transport.feed(frame, own: own, at: time)
            replies += outcome.replies
            if let message = outcome.message { body(message) }
            return
        }
        if Self.isFastPacket(pgn) {
            if let message = fast.feed(frame, at: time) { body(message) }
            return
        }
        body(N2KMessage(frame))
    }

    /// One frame read by a listener, who answers nothing.
    public mutating func feed(_ frame: CANFrame, at time: Double, _ body: (N2KMessage) -> Void) {
        var ignored: [CANFrame] = []
        feed(frame, own: nil, at: time, replies: &ignored, body)
    }

    /// Messages missing frames for too long, given up.
    public mutating func expire(at time: Double) { fast.expire(at: time) }
}

/// Messages into frames: a fast-packet PGN (or one longer than 8 bytes) in frames of 8 with `sequence` (0 to 7, one
/// more for each message of a PGN a sender sends), anything else in one frame.
public enum N2KSender {
    public static func frames(_ message: N2KMessage, sequence: UInt8) -> [CANFrame] {
        let id = message.identifier.id
        let bytes = message.payload.bytes
        guard bytes.count > 8 || N2KReceiver.isFastPacket(message.pgn) else { return [CANFrame(id: id, bytes: bytes)] }
        let top = (sequence & 7) << 5
        var frames = [CANFrame(id: id, bytes: [top, UInt8(min(bytes.count, 223))] + bytes.prefix(6))]
        var offset = 6
        var counter: UInt8 = 1
        while offset < min(bytes.count, 223) {
            var chunk = [top | counter] + bytes[offset..<min(offset + 7, bytes.count)]
            while chunk.count < 8 { chunk.append(0xFF) }
            frames.append(CANFrame(id: id, bytes: chunk))
            offset += 7
            counter += 1
        }
        if frames[0].count < 8 {
            var first = frames[0].bytes
            while first.count < 8 { first.append(0xFF) }
            frames[0] = CANFrame(id: id, bytes: first)
        }
        return frames
    }
}
