/// VTG, course and speed over ground.
///
/// `$--VTG,x.x,T,x.x,M,x.x,N,x.x,K,m*hh`
/// COG true · T · COG magnetic · M · SOG knots · N · SOG km/h · K · FAA mode (2.3+)
public struct VTG: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x56, 0x54, 0x47)  // "VTG"

    public var courseTrue: Double?
    public var courseMagnetic: Double?
    public var speedKnots: Double?
    public var speedKilometresPerHour: Double?
    public var mode: FAAMode?

    public init(
        courseTrue: Double? = nil, courseMagnetic: Double? = nil, speedKnots: Double? = nil,
        speedKilometresPerHour: Double? = nil, mode: FAAMode? = nil
    ) {
        self.courseTrue = courseTrue
        self.courseMagnetic = courseMagnetic
        self.speedKnots = speedKnots
        self.speedKilometresPerHour = speedKilometresPerHour
        self.mode = mode
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        courseTrue = try r.double()
        try r.unit("T")
        courseMagnetic = try r.double()
        try r.unit("M")
        speedKnots = try r.double()
        try r.unit("N")
        speedKilometresPerHour = try r.double()
        try r.unit("K")
        mode = try r.faaMode()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(courseTrue, decimals: 1)
        w.character(UInt8(ascii: "T"))
        w.number(courseMagnetic, decimals: 1)
        w.character(UInt8(ascii: "M"))
        w.number(speedKnots, decimals: 2)
        w.character(UInt8(ascii: "N"))
        w.number(speedKilometresPerHour, decimals: 2)
        w.character(UInt8(ascii: "K"))
        if mode != nil { w.faaMode(mode) }
    }

    /// Speed over ground in knots, from whichever unit is present.
    public var speedOverGround: Double? { speedKnots ?? speedKilometresPerHour.map { $0 * 1000 / 1852 } }

    public var isUsable: Bool { mode?.isValid ?? true }
}
