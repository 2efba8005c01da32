/// A manoeuvre's change of velocity over the ground and through the water under a calibration: the current's
/// invariant (the current `G − W` is the same just before and just after a manoeuvre), which the log's factor, its
/// side term and its steps rest on (``CalibrationLearner``).
struct WaterChange {
    /// When the manoeuvre was (the sample's time).
    var time: Double
    /// Velocities in the earth frame (x north, y east), knots: over ground and through water, before and after.
    var ground0: PlaneVector
    var ground1: PlaneVector
    var water0: PlaneVector
    var water1: PlaneVector
    /// The windows' mean apparent wind angle under the calibration (signed, degrees).
    var apparent0: Double
    var apparent1: Double

    /// Each of `manoeuvres` whose two windows have fixes, under `calibration`, in their order.
    static func all(_ samples: [SailingSample], _ manoeuvres: [Manoeuvre], _ calibration: SailingCalibration)
        -> [WaterChange]
    {
        manoeuvres.compactMap { manoeuvre in
            let before = WindowMeans(samples, manoeuvre.before, calibration)
            let after = WindowMeans(samples, manoeuvre.after, calibration)
            guard let g0 = before.ground, let g1 = after.ground else { return nil }
            return WaterChange(
                time: manoeuvre.time, ground0: g0, ground1: g1, water0: before.water, water1: after.water,
                apparent0: before.apparentAngle, apparent1: after.apparentAngle)
        }
    }

    /// The least water velocity (knots) a manoeuvre must turn for the log to be judged by it.
    static let leastTurn = 2.0

    /// The log's factor this manoeuvre says: `ΔG = k ΔW`, so `k = ΔG·ΔW / |ΔW|²`; nil when it turned the water
    /// velocity by less than ``leastTurn``.
    var factor: Double? {
        let dw = water1 - water0
        let dg = ground1 - ground0
        return Self.projection(dg, on: dw)
    }

    /// The log's side term this manoeuvre says on top of the factor (``CalibrationLearner/speedSide(_:_:_:)``), with
    /// `p0` and `p1` the sides the two windows heel to: `ΔG − ΔW = s (p₁W₁ − p₀W₀)`.
    func side(_ p0: Double, _ p1: Double) -> Double? {
        let v = PlaneVector(x: p1 * water1.x - p0 * water0.x, y: p1 * water1.y - p0 * water0.y)
        return Self.projection((ground1 - ground0) - (water1 - water0), on: v)
    }

    /// `a`'s projection on `b` over `b`'s length squared, nil when `b` is shorter than ``leastTurn``.
    static func projection(_ a: PlaneVector, on b: PlaneVector) -> Double? {
        let length = b.x * b.x + b.y * b.y
        guard length >= leastTurn * leastTurn else { return nil }
        return (a.x * b.x + a.y * b.y) / length
    }
}
