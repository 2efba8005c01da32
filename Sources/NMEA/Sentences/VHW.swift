/// VHW, water speed and heading.
///
/// `$--VHW,x.x,T,x.x,M,x.x,N,x.x,K*hh`
/// heading true · T · heading magnetic · M · speed through water knots · N · km/h · K
public struct VHW: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x56, 0x48, 0x57)  // "VHW"

    public var headingTrue: Double?
    public var headingMagnetic: Double?
    public var speedKnots: Double?
    public var speedKilometresPerHour: Double?

    public init(
        headingTrue: Double? = nil, headingMagnetic: Double? = nil, speedKnots: Double? = nil,
        speedKilometresPerHour: Double? = nil
    ) {
        self.headingTrue = headingTrue
        self.headingMagnetic = headingMagnetic
        self.speedKnots = speedKnots
        self.speedKilometresPerHour = speedKilometresPerHour
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        headingTrue = try r.double()
        try r.unit("T")
        headingMagnetic = try r.double()
        try r.unit("M")
        speedKnots = try r.double()
        try r.unit("N")
        speedKilometresPerHour = try r.double()
        try r.unit("K")
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(headingTrue.map { WireAngle.fullCircle($0, decimals: 1) }, decimals: 1)
        w.character(UInt8(ascii: "T"))
        w.number(headingMagnetic.map { WireAngle.fullCircle($0, decimals: 1) }, decimals: 1)
        w.character(UInt8(ascii: "M"))
        w.number(speedKnots, decimals: 2)
        w.character(UInt8(ascii: "N"))
        w.number(speedKilometresPerHour, decimals: 2)
        w.character(UInt8(ascii: "K"))
    }

    /// Speed through water in knots, from whichever unit is present.
    public var speedThroughWater: Double? { speedKnots ?? speedKilometresPerHour.map { $0 / 1.852 } }
}
