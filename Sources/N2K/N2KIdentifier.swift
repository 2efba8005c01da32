/// What a frame's 29-bit identifier says (ISO 11783 / J1939, as NMEA 2000 uses it): the priority (0 most urgent, 7
/// least), the PGN, the sender's address and the addressee.
///
///     bits 28–26 priority · 25 extended data page · 24 data page · 23–16 PDU format (PF) · 15–8 PDU specific (PS) ·
///     7–0 source address
///
/// With PF below 240 (PDU1) the message is addressed: PS is the destination and the PGN's low byte is 0. From 240
/// (PDU2) it is broadcast: PS is part of the PGN and the destination is 255, everyone.
public struct N2KIdentifier: Hashable, Sendable {
    public var priority: UInt8
    public var pgn: UInt32
    public var source: UInt8
    public var destination: UInt8

    /// Everyone: the destination of a broadcast, and a request's "all devices".
    public static let global: UInt8 = 255

    public init(priority: UInt8, pgn: UInt32, source: UInt8, destination: UInt8 = global) {
        self.priority = priority & 7
        self.pgn = pgn & 0x3FFFF
        self.source = source
        self.destination = Self.isAddressed(self.pgn) ? destination : Self.global
        if Self.isAddressed(self.pgn) { self.pgn &= 0x3FF00 }
    }

    /// The identifier a frame carries.
    public init(_ id: UInt32) {
        priority = UInt8(truncatingIfNeeded: (id >> 26) & 7)
        source = UInt8(truncatingIfNeeded: id)
        let format = (id >> 16) & 0xFF
        let specific = UInt8(truncatingIfNeeded: id >> 8)
        let page = (id >> 24) & 3
        if format < 240 {
            pgn = (page << 16) | (format << 8)
            destination = specific
        } else {
            pgn = (page << 16) | (format << 8) | UInt32(specific)
            destination = Self.global
        }
    }

    /// Whether the PGN is addressed to one device (PDU1: its PF byte below 240).
    public static func isAddressed(_ pgn: UInt32) -> Bool { (pgn >> 8) & 0xFF < 240 }

    /// The 29-bit identifier.
    public var id: UInt32 {
        let specific = Self.isAddressed(pgn) ? UInt32(destination) : pgn & 0xFF
        return (UInt32(priority) << 26) | ((pgn & 0x3FF00) << 8) | (specific << 8) | UInt32(source)
    }
}
