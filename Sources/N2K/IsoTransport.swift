/// ISO 11783-3 transport, receiving: a message of 9 to 1785 bytes announced on PGN 60416 (TP.CM) and sent in
/// packets of 7 on PGN 60160 (TP.DT). Broadcast (BAM) to everyone, or to this node (RTS), answered with a clear to
/// send (CTS) for all of it and, once whole, an end-of-message acknowledgement, as the standard asks. Bounded:
/// at most `capacity` sessions at once (the oldest given up), a gap over `timeout` seconds ends a session.
public struct IsoTransport: Sendable {
    public static let connectionManagement: UInt32 = 60416
    public static let dataTransfer: UInt32 = 60160
    public static let maximumLength = 1785

    public struct Counters: Hashable, Sendable {
        public var completed = 0
        public var abandoned = 0
        public var malformed = 0
    }

    private struct Session {
        var source: UInt8
        var destination: UInt8
        var pgn: UInt32
        var length: Int
        var packets: Int
        var last: Double
        var bytes: [UInt8]
    }

    public let capacity: Int
    public let timeout: Double
    public private(set) var counters = Counters()
    private var sessions: [Session] = []

    public init(capacity: Int = 8, timeout: Double = 1.25) {
        self.capacity = max(capacity, 1)
        self.timeout = timeout
    }

    /// What one TP frame comes to: a whole message, and the frames to send back (a CTS, an acknowledgement).
    public struct Outcome: Sendable {
        public var message: N2KMessage?
        public var replies: [CANFrame] = []
    }

    /// A frame of PGN 60416 or 60160 (`own`: this node's address, when it has one: sessions to it are answered).
    public mutating func feed(_ frame: CANFrame, own: UInt8?, at time: Double) -> Outcome {
        let before = sessions.count
        sessions.removeAll { time - $0.last > timeout }
        counters.abandoned += before - sessions.count
        let identifier = frame.identifier
        var outcome = Outcome()
        guard frame.count == 8 else {
            counters.malformed += 1
            return outcome
        }
        if identifier.pgn == Self.connectionManagement {
            let control = frame[0]
            let length = Int(frame[1]) | Int(frame[2]) << 8
            let packets = Int(frame[3])
            let pgn = UInt32(frame[5]) | UInt32(frame[6]) << 8 | UInt32(frame[7]) << 16
            switch control {
            case 32, 16:  // BAM to everyone; RTS to one
                let toUs = control == 16 && own != nil && identifier.destination == own
                guard control == 32 && identifier.destination == N2KIdentifier.global || toUs else { return outcome }
                guard length > 8, length <= Self.maximumLength, packets == (length + 6) / 7 else {
                    counters.malformed += 1
                    return outcome
                }
                sessions.removeAll { $0.source == identifier.source && $0.destination == identifier.destination }
                if sessions.count >= capacity {
                    sessions.removeFirst()
                    counters.abandoned += 1
                }
                sessions.append(
                    Session(
                        source: identifier.source, destination: identifier.destination, pgn: pgn, length: length,
                        packets: packets, last: time, bytes: Array(repeating: 0xFF, count: packets * 7)))
                if toUs, let own {
                    // Clear to send: every packet, from the first.
                    outcome.replies.append(
                        Self.management(
                            [17, UInt8(packets), 1, 0xFF, 0xFF] + Self.pgnBytes(pgn), from: own,
                            to: identifier.source))
                }
            case 255:  // abort
                sessions.removeAll { $0.source == identifier.source && $0.destination == identifier.destination }
            default:
                break
            }
            return outcome
        }
        guard identifier.pgn == Self.dataTransfer,
            let index = sessions.firstIndex(where: {
                $0.source == identifier.source && $0.destination == identifier.destination
            })
        else { return outcome }
        let sequence = Int(frame[0])
        guard sequence >= 1, sequence <= sessions[index].packets else {
            counters.malformed += 1
            return outcome
        }
        for byte in 0..<7 { sessions[index].bytes[(sequence - 1) * 7 + byte] = frame[1 + byte] }
        sessions[index].last = time
        if sequence == sessions[index].packets {
            let session = sessions.remove(at: index)
            counters.completed += 1
            outcome.message = N2KMessage(
                pgn: session.pgn, priority: identifier.priority, source: session.source,
                destination: session.destination, payload: N2KPayload(session.bytes[0..<session.length]))
            if let own, session.destination == own {
                outcome.replies.append(
                    Self.management(
                        [19, UInt8(session.length & 0xFF), UInt8(session.length >> 8), UInt8(session.packets), 0xFF]
                            + Self.pgnBytes(session.pgn), from: own, to: session.source))
            }
        }
        return outcome
    }

    static func pgnBytes(_ pgn: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: pgn), UInt8(truncatingIfNeeded: pgn >> 8), UInt8(truncatingIfNeeded: pgn >> 16)]
    }

    static func management(_ bytes: [UInt8], from source: UInt8, to destination: UInt8) -> CANFrame {
        CANFrame(
            id: N2KIdentifier(priority: 7, pgn: connectionManagement, source: source, destination: destination).id,
            bytes: bytes)
    }
}
