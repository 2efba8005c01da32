/// MWD, wind direction and speed: the direction the wind blows from.
///
/// `$--MWD,x.x,T,x.x,M,x.x,N,x.x,M*hh`
/// direction true · T · direction magnetic · M · knots · N · m/s · M
public struct MWD: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x4D, 0x57, 0x44)  // "MWD"

    public var directionTrue: Double?
    public var directionMagnetic: Double?
    public var speedKnots: Double?
    public var speedMetresPerSecond: Double?

    public init(
        directionTrue: Double? = nil, directionMagnetic: Double? = nil, speedKnots: Double? = nil,
        speedMetresPerSecond: Double? = nil
    ) {
        self.directionTrue = directionTrue
        self.directionMagnetic = directionMagnetic
        self.speedKnots = speedKnots
        self.speedMetresPerSecond = speedMetresPerSecond
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        directionTrue = try r.double()
        try r.unit("T")
        directionMagnetic = try r.double()
        try r.unit("M")
        speedKnots = try r.double()
        try r.unit("N")
        speedMetresPerSecond = try r.double()
        try r.unit("M")
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(directionTrue.map { WireAngle.fullCircle($0, decimals: 1) }, decimals: 1)
        w.character(UInt8(ascii: "T"))
        w.number(directionMagnetic.map { WireAngle.fullCircle($0, decimals: 1) }, decimals: 1)
        w.character(UInt8(ascii: "M"))
        w.number(speedKnots, decimals: 1)
        w.character(UInt8(ascii: "N"))
        w.number(speedMetresPerSecond, decimals: 1)
        w.character(UInt8(ascii: "M"))
    }

    public var knots: Double? { speedKnots ?? speedMetresPerSecond.map { $0 * 3600 / 1852 } }
}
