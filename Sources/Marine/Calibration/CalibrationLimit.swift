/// How far a calibration may move what the gateway computes (#50: "the calibrated true wind angle and heading never
/// more than 12° from the uncalibrated ones"). A calibration that would turn a second's true wind angle further is wrong
/// for that second: the log it learnt has since changed (a paddle wheel cleaned, an instrument's speed setting put
/// back), or the triangle there is so ill-conditioned (the boat nearly as fast as the wind, running in a light air)
/// that a few percent of the log's factor swing the angle round. Either way a sailor would rather have the
/// instruments' own reading than a learnt correction of that size: the calibration is then applied only as far as it
/// keeps within the bound (every part of it the same share of the way, so the wind, the log and the heading stay
/// consistent with one another), and the engine counts the seconds it did so.
extension SailingCalibration {
    /// Degrees: the most a calibration may turn the true wind angle or the heading.
    public static let largestTurn = 12.0

    /// Every correction `share` of the way (0: none, 1: all of it): the offsets, upwash and the card times `share`, the
    /// factors and the log's steps' ratios that share of the way from 1; the leeway coefficient as learnt (the turn leaves
    /// the leeway out).
    public func scaled(_ share: Double) -> SailingCalibration {
        if share >= 1 { return self }
        if share <= 0 { return SailingCalibration(leewayCoefficient: leewayCoefficient) }
        let s = share
        func factor(_ f: Double) -> Double { 1 + (f - 1) * s }
        var scaled = SailingCalibration(
            awaOffset: awaOffset * s, upwashUpwind: upwashUpwind * s, upwashDownwind: upwashDownwind * s,
            upwashReach: upwashReach * s, speedFactor: factor(speedFactor),
            deviation: DeviationCurve(deviation.coefficients.map { $0 * s }), leewayCoefficient: leewayCoefficient,
            awsFactor: factor(awsFactor), speedSide: speedSide * s)
        scaled.upwashByWind = UpwashByWind(
            windSpeeds: upwashByWind.windSpeeds, upwind: upwashByWind.upwind.map { $0 * s },
            downwind: upwashByWind.downwind.map { $0 * s }, reach: upwashByWind.reach.map { $0 * s })
        scaled.logSteps = logSteps.map {
            var step = $0
            step.ratio = factor(step.ratio)
            step.windRatio = factor(step.windRatio)
            return step
        }
        return scaled
    }

    /// How far this calibration (its log's steps already folded in: ``at(_:)``) turns the true wind angle over the
    /// water (degrees, unsigned) for one reading: the measured apparent wind (degrees signed, m/s) and the log's speed
    /// (m/s); the leeway and the heel, the same either way, left out.
    public func turn(awa: Double, aws: Double, stw: Double) -> Double {
        let raw = WindTriangle.trueWind(apparent: RelativeWind(angle: awa, speed: aws), speedThroughWater: stw)
        let lookup =
            upwashByWind.isEmpty
            ? nil : Units.knots(metresPerSecond: lookupWindSpeed(awa: awa, aws: aws, stw: speed(stw, awa: awa)))
        let corrected = WindTriangle.trueWind(
            apparent: RelativeWind(angle: apparentAngle(awa, windSpeed: lookup), speed: windSpeed(aws)),
            speedThroughWater: speed(stw, awa: awa))
        return abs(Angle.difference(from: raw.angle, to: corrected.angle))
    }

    /// The share of this calibration (its steps folded in) one reading may have: 1 when the whole of it turns the true
    /// wind angle and the heading by ``largestTurn`` at most, else the largest share that does (to 1/1024; never
    /// beyond the bound). `awa`, `aws` and `stw` nil: the heading's bound alone; `speedUnit` the metres per second of
    /// one unit of `aws` and `stw` (the upwash by wind speed is looked up in knots).
    public func share(awa: Double?, aws: Double?, stw: Double?, heading: Double?, speedUnit: Double = 1) -> Double {
        var most = 1.0
        if let heading {
            let deviation = abs(self.deviation.deviation(heading))
            if deviation > Self.largestTurn { most = Self.largestTurn / deviation }
        }
        guard let awa, let aws, let stw, aws.isFinite, stw.isFinite else { return most }
        func within(_ s: Double) -> Bool {
            scaled(s).turn(awa: awa, aws: aws * speedUnit, stw: stw * speedUnit) <= Self.largestTurn
        }
        if within(most) { return most }
        var low = 0.0
        var high = most
        for _ in 0..<10 {
            let middle = (low + high) / 2
            if within(middle) { low = middle } else { high = middle }
        }
        return low
    }

    /// This calibration as it may apply to one second of sailing: its steps folded in at the sample's time, then the
    /// share ``share(awa:aws:stw:heading:speedUnit:)`` allows (samples are in knots).
    public func bounded(for sample: SailingSample) -> SailingCalibration {
        let dated = at(sample.time)
        return dated.scaled(
            dated.share(
                awa: sample.awa, aws: sample.aws, stw: sample.stw, heading: sample.heading,
                speedUnit: Units.metresPerSecondPerKnot))
    }
}
