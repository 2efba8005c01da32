/// Units and sign conventions, in one place. Everything in `Marine` and `Engine` follows them.
///
/// - Speeds are metres per second inside, knots on the wire (``Units``).
/// - Distances are metres inside, nautical miles (1852 m) on the wire.
/// - Angles are degrees at the edges; the maths converts to radians where it needs them.
/// - Directions (heading, course, bearing, wind direction) are degrees clockwise from north, [0, 360).
/// - Relative angles (AWA, TWA, leeway, an angle off the bow) are signed, (-180, 180], positive = starboard.
///   On the wire MWV uses 0–360 clockwise from the bow.
/// - Wind angles and directions say where the wind comes FROM.
/// - Heel (roll) is positive with the starboard side down; pitch is positive bow up.
/// - Boat body frame: x forward, y starboard, z down (FRD). Roll rate positive = rolling to starboard,
///   pitch rate positive = bow rising, yaw rate positive = turning to starboard.
/// - Leeway is positive when the boat drifts to starboard of its heading.
/// - Magnetic variation and deviation are positive east: true = magnetic + variation, magnetic = compass + deviation.
public enum Units {
    public static let metresPerNauticalMile = 1852.0
    /// Metres per second in one knot.
    public static let metresPerSecondPerKnot = 1852.0 / 3600.0

    public static func metresPerSecond(knots: Double) -> Double { knots * metresPerSecondPerKnot }
    public static func knots(metresPerSecond: Double) -> Double { metresPerSecond / metresPerSecondPerKnot }
}

/// Angle helpers that follow the conventions above.
public enum Angle {
    public static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    public static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// A direction in [0, 360).
    public static func direction(_ degrees: Double) -> Double {
        let wrapped = degrees.truncatingRemainder(dividingBy: 360)
        let positive = wrapped < 0 ? wrapped + 360 : wrapped
        return positive >= 360 ? 0 : positive
    }

    /// A signed relative angle in (-180, 180].
    public static func relative(_ degrees: Double) -> Double {
        let direction = direction(degrees)
        return direction > 180 ? direction - 360 : direction
    }

    /// The signed smallest difference `to - from`, in (-180, 180].
    public static func difference(from: Double, to: Double) -> Double { relative(to - from) }
}

/// A plane vector in the boat or the earth frame; used for wind, where angle and speed are damped together.
public struct PlaneVector: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// From a speed and an angle in degrees (x along 0°, y along +90°).
    public init(magnitude: Double, angle degrees: Double) {
        let radians = Angle.radians(degrees)
        x = magnitude * cos(radians)
        y = magnitude * sin(radians)
    }

    public var magnitude: Double { (x * x + y * y).squareRoot() }
    /// Angle in degrees, (-180, 180]; 0 for the zero vector.
    public var angle: Double { Angle.degrees(atan2(y, x)) }

    public static func + (lhs: PlaneVector, rhs: PlaneVector) -> PlaneVector {
        PlaneVector(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
    }

    public static func - (lhs: PlaneVector, rhs: PlaneVector) -> PlaneVector {
        PlaneVector(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
    }

    /// Rotated by `degrees` (positive clockwise on a compass, that is from x towards y).
    public func rotated(by degrees: Double) -> PlaneVector {
        let radians = Angle.radians(degrees)
        let c = cos(radians)
        let s = sin(radians)
        return PlaneVector(x: x * c - y * s, y: x * s + y * c)
    }
}
