/// The shared layout of VWR (apparent) and VWT (true) wind, the legacy pair still read by many displays.
///
/// `$--VWR,x.x,a,x.x,N,x.x,M,x.x,K*hh`
/// angle 0–180 · side `L`/`R` · knots · N · m/s · M · km/h · K
public struct SideWind: Hashable, Sendable {
    /// Degrees off the bow, 0–180.
    public var angle: Double?
    public var side: Side?
    public var speedKnots: Double?
    public var speedMetresPerSecond: Double?
    public var speedKilometresPerHour: Double?

    public init(
        angle: Double? = nil, side: Side? = nil, speedKnots: Double? = nil, speedMetresPerSecond: Double? = nil,
        speedKilometresPerHour: Double? = nil
    ) {
        self.angle = angle
        self.side = side
        self.speedKnots = speedKnots
        self.speedMetresPerSecond = speedMetresPerSecond
        self.speedKilometresPerHour = speedKilometresPerHour
    }

    /// From a signed angle (−180, 180], positive starboard, and a speed in knots; all three speed units filled.
    public init(signedAngle: Double?, knots: Double?) {
        self.init(
            angle: signedAngle.map { abs($0) }, side: signedAngle.map { $0 < 0 ? .left : .right },
            speedKnots: knots, speedMetresPerSecond: knots.map { $0 * 1852 / 3600 },
            speedKilometresPerHour: knots.map { $0 * 1.852 })
    }

    init(fields r: inout FieldReader) throws(DecodeError) {
        angle = try r.double()
        side = try r.side()
        speedKnots = try r.double()
        try r.unit("N")
        speedMetresPerSecond = try r.double()
        try r.unit("M")
        speedKilometresPerHour = try r.double()
        try r.unit("K")
    }

    func write(to w: inout SentenceWriter) {
        w.number(angle, decimals: 1)
        w.character(side?.rawValue)
        w.number(speedKnots, decimals: 1)
        w.character(UInt8(ascii: "N"))
        w.number(speedMetresPerSecond, decimals: 1)
        w.character(UInt8(ascii: "M"))
        w.number(speedKilometresPerHour, decimals: 1)
        w.character(UInt8(ascii: "K"))
    }

    /// The angle signed, positive starboard.
    public var signedAngle: Double? {
        guard let angle else { return nil }
        return side == .left ? -angle : angle
    }

    /// Knots from whichever unit is present.
    public var knots: Double? {
        speedKnots ?? speedMetresPerSecond.map { $0 * 3600 / 1852 } ?? speedKilometresPerHour.map { $0 / 1.852 }
    }
}

/// VWR, apparent wind relative to the bow (legacy). Layout: ``SideWind``.
public struct VWR: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x56, 0x57, 0x52)  // "VWR"
    public var wind: SideWind

    public init(_ wind: SideWind) { self.wind = wind }
    public init(fields r: inout FieldReader) throws(DecodeError) { wind = try SideWind(fields: &r) }
    public func write(to w: inout SentenceWriter, shortening: Int) { wind.write(to: &w) }
}

/// VWT, true wind relative to the bow (legacy). Layout: ``SideWind``.
public struct VWT: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x56, 0x57, 0x54)  // "VWT"
    public var wind: SideWind

    public init(_ wind: SideWind) { self.wind = wind }
    public init(fields r: inout FieldReader) throws(DecodeError) { wind = try SideWind(fields: &r) }
    public func write(to w: inout SentenceWriter, shortening: Int) { wind.write(to: &w) }
}
