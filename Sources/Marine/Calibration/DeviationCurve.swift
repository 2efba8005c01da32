/// Compass deviation by heading, the five-term curve a compass adjuster's card draws: degrees added to a heading the
/// compass gave, `a + b sin h + c cos h + d sin 2h + e cos 2h` (a: the compass turned in its mounting; b, c: the boat's
/// permanent magnetism; d, e: soft iron). East deviation is positive. Learnt by ``DeviationLearner``, applied by the
/// engine to a heading that came from a magnetic compass, never to a true heading (a gyro, a GNSS compass).
public struct DeviationCurve: Hashable, Sendable {
    public var coefficients: [Double]

    public init(_ coefficients: [Double] = [0, 0, 0, 0, 0]) {
        self.coefficients = (coefficients + [0, 0, 0, 0, 0]).prefix(5).map { $0.isFinite ? $0 : 0 }
    }

    public var isZero: Bool { coefficients.allSatisfy { $0 == 0 } }

    /// The five terms' multipliers at a heading (degrees).
    public static func terms(_ heading: Double) -> [Double] {
        let h = Angle.radians(heading)
        return [1, sin(h), cos(h), sin(2 * h), cos(2 * h)]
    }

    /// Degrees to add to a compass heading.
    public func deviation(_ heading: Double) -> Double {
        // Term by term, without the array of ``terms(_:)``: the engine asks every tick, and a tick allocates nothing.
        guard coefficients.count == 5 else {
            return zip(coefficients, Self.terms(heading)).reduce(0) { $0 + $1.0 * $1.1 }
        }
        let h = Angle.radians(heading)
        return coefficients[0] + coefficients[1] * sin(h) + coefficients[2] * cos(h) + coefficients[3] * sin(2 * h)
            + coefficients[4] * cos(2 * h)
    }

    /// The heading corrected.
    public func corrected(_ heading: Double) -> Double { Angle.direction(heading + deviation(heading)) }

    /// This curve followed by one learnt from headings it had already corrected (close enough for curves of a few
    /// degrees: the terms add).
    public func then(_ residual: DeviationCurve) -> DeviationCurve {
        DeviationCurve(zip(coefficients, residual.coefficients).map { $0 + $1 })
    }
}
