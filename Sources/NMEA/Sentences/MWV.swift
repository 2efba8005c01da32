/// MWV, wind speed and angle.
///
/// `$--MWV,x.x,a,x.x,a,A*hh`
/// angle 0–359.9 clockwise from the bow · reference `R` apparent / `T` true · speed · unit `N`/`M`/`K` · status
public struct MWV: Hashable, Sendable, DecodableSentence, EncodableSentence {
    public static let formatter = Formatter(0x4D, 0x57, 0x56)  // "MWV"

    public enum Reference: UInt8, Hashable, Sendable {
        case relative = 82  // "R", apparent wind
        case `true` = 84  // "T", true wind
    }

    /// Degrees clockwise from the bow, 0 ..< 360.
    public var angle: Double?
    public var reference: Reference?
    public var speed: Double?
    public var unit: SpeedUnit?
    public var isValid: Bool?

    public init(
        angle: Double? = nil, reference: Reference? = nil, speed: Double? = nil, unit: SpeedUnit? = .knots,
        isValid: Bool? = nil
    ) {
        self.angle = angle
        self.reference = reference
        self.speed = speed
        self.unit = unit
        self.isValid = isValid
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        angle = try r.double()
        reference = try r.character(oneOf: "RT").flatMap(Reference.init(rawValue:))
        speed = try r.double()
        unit = try r.character(oneOf: "NMK").flatMap(SpeedUnit.init(rawValue:))
        isValid = try r.status()
    }

    public func write(to w: inout SentenceWriter, shortening: Int) {
        w.number(angle.map { WireAngle.fullCircle($0, decimals: 1) }, decimals: 1)
        w.character(reference?.rawValue)
        w.number(speed, decimals: 1)
        w.character(unit?.rawValue)
        w.status(isValid)
    }

    /// Wind speed in knots, whatever unit was sent.
    public var speedKnots: Double? {
        guard let speed else { return nil }
        return (unit ?? .knots).knots(speed)
    }
}

/// Angle normalisation for the wire, done after rounding so 359.96 goes out as 0.0 and not 360.0.
enum WireAngle {
    static func fullCircle(_ degrees: Double, decimals: Int) -> Double {
        guard degrees.isFinite else { return degrees }
        let scale = FieldReader.powersOfTen[min(max(decimals, 0), 9)]
        let units = 360 * scale
        var rounded = (degrees * scale).rounded().truncatingRemainder(dividingBy: units)
        if rounded < 0 { rounded += units }
        return rounded / scale
    }
}
