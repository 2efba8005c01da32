/// One NMEA 2000 message, whole: a single frame's, or a fast packet or transport session reassembled.
public struct N2KMessage: Hashable, Sendable {
    public var pgn: UInt32
    public var priority: UInt8
    public var source: UInt8
    public var destination: UInt8
    public var payload: N2KPayload

    public init(
        pgn: UInt32, priority: UInt8, source: UInt8, destination: UInt8 = N2KIdentifier.global,
        payload: N2KPayload
    ) {
        self.pgn = pgn
        self.priority = priority
        self.source = source
        self.destination = destination
        self.payload = payload
    }

    /// A single frame's message.
    public init(_ frame: CANFrame) {
        let identifier = frame.identifier
        self.init(
            pgn: identifier.pgn, priority: identifier.priority, source: identifier.source,
            destination: identifier.destination, payload: N2KPayload(frame))
    }

    public var identifier: N2KIdentifier {
        N2KIdentifier(priority: priority, pgn: pgn, source: source, destination: destination)
    }
}
