/// XTE, cross-track error.
///
/// `$--XTE,A,A,x.x,a,N,m*hh`
/// status (Loran-C blink / general) · status (cycle lock) · magnitude · direction to steer `L`/`R` · `N` · FAA mode
///
/// The letter is the direction to steer back to the track, not the side the boat is on.
public struct XTE: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x58, 0x54, 0x45)  // "XTE"

    public var status1: Bool?
    public var status2: Bool?
    /// Nautical miles, not negative.
    public var magnitude: Double?
    public var steer: Side?
    public var mode: FAAMode?

    public init(
        status1: Bool? = nil, status2: Bool? = nil, magnitude: Double? = nil, steer: Side? = nil, mode: FAAMode? = nil
    ) {
        self.status1 = status1
        self.status2 = status2
        self.magnitude = magnitude
        self.steer = steer
        self.mode = mode
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        status1 = try r.status()
        status2 = try r.status()
        let crossTrack = try r.double()
        steer = try r.side()
        // Nautical miles, or kilometres from some receivers (read into miles).
        let kilometres = try r.character(oneOf: "NK") == UInt8(ascii: "K")
        magnitude = kilometres ? crossTrack.map { $0 / 1.852 } : crossTrack
        mode = try r.faaMode()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.status(status1)
        w.status(status2)
        w.number(magnitude, decimals: 3)
        w.character(steer?.rawValue)
        w.character(UInt8(ascii: "N"))
        if mode != nil { w.faaMode(mode) }
    }
}
