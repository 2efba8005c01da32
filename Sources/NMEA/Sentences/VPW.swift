/// VPW, speed measured parallel to the wind (VMG to windward; negative downwind).
///
/// `$--VPW,x.x,N,x.x,M*hh`
public struct VPW: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x56, 0x50, 0x57)  // "VPW"

    public var speedKnots: Double?
    public var speedMetresPerSecond: Double?

    public init(speedKnots: Double? = nil, speedMetresPerSecond: Double? = nil) {
        self.speedKnots = speedKnots
        self.speedMetresPerSecond = speedMetresPerSecond
    }

    /// Both units from knots.
    public init(knots: Double?) {
        self.init(speedKnots: knots, speedMetresPerSecond: knots.map { $0 * 1852 / 3600 })
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        speedKnots = try r.double()
        try r.unit("N")
        speedMetresPerSecond = try r.double()
        try r.unit("M")
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(speedKnots, decimals: 2)
        w.character(UInt8(ascii: "N"))
        w.number(speedMetresPerSecond, decimals: 2)
        w.character(UInt8(ascii: "M"))
    }
}
