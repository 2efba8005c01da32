/// The upwash by point of sail (upwind, reaching, downwind), from the true wind direction being the same just before
/// and just after a manoeuvre (docs/calibration.md).
///
/// A window whose apparent angle gives the point of sail a share w (``PointOfSail``), on side s
/// (+1: the wind to starboard), has its true wind direction turned by about `s w u` (times the true angle's change for
/// a degree of apparent) when that point of sail's upwash is u; so the jump across a manoeuvre moves by `u (s_after
/// w_after − s_before w_before)`. The manoeuvres where that difference is half or more are used, each jump signed
/// against it (the signed jump then falls as u grows), and u is the value that brings their median to zero, by
/// bisection. A tack between two beats has a difference of 2, and its jump is signed by the side the boat came from;
/// a gybe at 120° apparent (a run at some 150° true) is half downwind and half a reach on each side. Each manoeuvre
/// teaches the point of sail whose difference is the largest across it (``shareDifference(_:_:_:_:)``): a gybe between two reaches says
/// nothing of the downwind upwash, and is not used for it.
///
/// The three, with the wind speed's factor, change what the others see (a wind speed read high narrows the true wind
/// angle upwind as an upwash does; the reach and the downwind share the gybes; a reach read wide turns the true wind
/// speed across a bear-away), so they are learnt by turns, each on top of the others, until none moves
/// (``learnAngles``).
extension CalibrationLearner {
    /// The difference of a point of sail's share a manoeuvre must have to be used for its upwash.
    static let shareNeeded = 0.5

    /// The wind speed's factor (from the bear-aways and round-ups), then the upwash upwind (from the tacks), downwind
    /// (the gybes) and reaching (both), on top of `calibration` (changed: each applied when sure, else none); whether
    /// any of them moved by more than a twentieth of a degree or a thousandth.
    func learnAngles(
        _ samples: [SailingSample], tacks: [Manoeuvre], gybes: [Manoeuvre], _ report: inout CalibrationReport,
        _ calibration: inout SailingCalibration
    ) -> Bool {
        let before = calibration
        var base = calibration
        base.awsFactor = 1
        report.awsFactor = windSpeedFactor(samples, report.roundings, base)
        calibration.awsFactor = appliedWindSpeed(report.awsFactor, calibration)
        for point in PointOfSail.allCases {
            let learnt = upwash(
                samples, point == .upwind ? tacks : point == .downwind ? gybes : tacks + gybes,
                calibration, point)
            switch point {
            case .upwind: report.upwashUpwind = learnt
            case .reach: report.upwashReach = learnt
            case .downwind: report.upwashDownwind = learnt
            }
            calibration = calibration.with(upwash: learnt.isSure ? learnt.value : 0, point)
        }
        return abs(calibration.awsFactor - before.awsFactor) > 0.001
            || abs(calibration.upwashUpwind - before.upwashUpwind) > 0.05
            || abs(calibration.upwashReach - before.upwashReach) > 0.05
            || abs(calibration.upwashDownwind - before.upwashDownwind) > 0.05
    }

    /// The upwash that brings the median signed jump of `manoeuvres` to zero at `point`, on top of `calibration`.
    func upwash(
        _ samples: [SailingSample], _ manoeuvres: [Manoeuvre], _ calibration: SailingCalibration, _ point: PointOfSail
    ) -> LearntValue {
        let base = calibration.with(upwash: 0, point)
        // The manoeuvres this point of sail teaches, each with the sign that makes its jump fall as u grows.
        var used: [Manoeuvre] = []
        var signs: [Double] = []
        for m in manoeuvres {
            guard let d = Self.shareDifference(samples, m, base, point), abs(d) >= Self.shareNeeded else { continue }
            used.append(m)
            signs.append(d > 0 ? -1 : 1)
        }
        guard used.count >= minimumCount else { return .none(0, count: used.count) }
        func jumps(_ u: Double) -> [Double] {
            let c = base.with(upwash: u, point)
            return zip(used, signs).map { m, sign in sign * CalibrationReport.jump(samples, m, c) }
        }
        let bias = { (u: Double) in RobustStatistics.median(jumps(u)) }
        let limit = 2 * upwashBound
        let name = point == .upwind ? "tacks" : point == .downwind ? "gybes" : "reaches"
        guard let value = Bisection.root(-limit, limit, bias) else {
            return LearntValue(
                value: bias(-limit) > 0 ? limit : -limit, uncertainty: .infinity, count: used.count,
                status: .sensorFault("no upwash within ±\(Int(limit))° makes the true wind hold across the \(name)"))
        }
        // The error of the median jump, turned into degrees of upwash by the jump's slope there.
        let slope = abs(bias(value + 1) - bias(value - 1)) / 2
        let error = slope > 0.1 ? RobustStatistics.medianError(jumps(value)) / slope : .infinity
        let fault =
            point == .upwind
            ? "the upwind wind angle is wrong by"
            : point == .downwind ? "the downwind wind angle is wrong by" : "the reaching wind angle is wrong by"
        return judged(value, error, count: used.count, sure: sureAngle, bound: upwashBound, fault: fault)
    }

    /// `s_after w_after − s_before w_before` for `point` across `m`: how much more of it, to starboard, the window after
    /// is than the one before (each window's mean apparent angle under `calibration`); nil when another point of
    /// sail's difference is larger (a tie goes to upwind or downwind, not to the reach). A gybe at 120° apparent is as
    /// much a reach as a run, and is the downwind's; at 110° the reach's: so each gybe teaches one of the two, and a
    /// boat that only ever gybed at one angle learns one value.
    static func shareDifference(
        _ samples: [SailingSample], _ m: Manoeuvre, _ calibration: SailingCalibration, _ point: PointOfSail
    ) -> Double? {
        let before = WindowMeans(samples, m.before, calibration).apparentAngle
        let after = WindowMeans(samples, m.after, calibration).apparentAngle
        func difference(_ p: PointOfSail) -> Double {
            (after < 0 ? -1 : 1) * p.share(abs(after)) - (before < 0 ? -1 : 1) * p.share(abs(before))
        }
        let own = abs(difference(point))
        for other in PointOfSail.allCases where other != point {
            let theirs = abs(difference(other))
            if theirs > own + 1e-9 || (abs(theirs - own) <= 1e-9 && point == .reach) { return nil }
        }
        return difference(point)
    }
}
