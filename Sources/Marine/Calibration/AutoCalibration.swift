/// The gateway calibrating itself (`[calibration] auto = true`): when it learns from its history, and which of what
/// it learnt is worth applying. Pure: times and calibrations in, a decision out; the shell runs the learner and
/// carries the decision out.
///
/// The learner writes only the values it is sure of (``LearntValue/isSure``: enough manoeuvres, an error within its
/// bound), composed with the calibration already applied; a value not sure keeps the applied one. So the learnt
/// calibration differs from the applied one only where the learner is sure, and a change is applied when it is
/// larger than the smallest step a sailor would notice: half a degree of angle (the offset, the upwash, the compass
/// card anywhere on the rose), half a percent of a factor, a tenth of the leeway's coefficient; and not when the check
/// on the newest days says it would have made them worse (``refusal(_:)``).
public struct AutoCalibration: Hashable, Sendable {
    /// Seconds between learnings, and before the first (after the start).
    public var every: Double
    public var firstAfter: Double
    public var angleStep = 0.5
    public var factorStep = 0.005
    public var leewayStep = 0.1

    public init(every: Double = 6 * 3600, firstAfter: Double = 600) {
        self.every = every
        self.firstAfter = firstAfter
    }

    /// When the next learning is due (monotonic seconds): `firstAfter` after the start, then `every` after the last
    /// one started.
    public func due(started: Double, lastLearnt: Double?) -> Double {
        lastLearnt.map { $0 + every } ?? started + min(firstAfter, every)
    }

    /// What changes from `applied` to `learnt` that is worth applying, in words (`awa_offset -4.50° → -3.80°`);
    /// none: keep what is applied.
    public func changes(from applied: SailingCalibration, to learnt: SailingCalibration) -> [String] {
        var said: [String] = []
        func angle(_ name: String, _ a: Double, _ b: Double) {
            if abs(b - a) >= angleStep { said.append("\(name) \(Self.text(a, 2))° → \(Self.text(b, 2))°") }
        }
        func factor(_ name: String, _ a: Double, _ b: Double) {
            if abs(b / a - 1) >= factorStep { said.append("\(name) \(Self.text(a, 4)) → \(Self.text(b, 4))") }
        }
        angle("awa_offset", applied.awaOffset, learnt.awaOffset)
        angle("upwash_upwind", applied.upwashUpwind, learnt.upwashUpwind)
        angle("upwash_downwind", applied.upwashDownwind, learnt.upwashDownwind)
        angle("upwash_reach", applied.upwashReach, learnt.upwashReach)
        // The upwash by wind speed, compared where either has a table (and at the single values' where neither).
        let speeds = Array(Set(applied.upwashByWind.windSpeeds + learnt.upwashByWind.windSpeeds)).sorted()
        let table =
            speeds.map { speed in
                PointOfSail.allCases.map { abs(learnt.upwash(speed, $0) - applied.upwash(speed, $0)) }.max() ?? 0
            }.max() ?? 0
        if table >= angleStep { said.append("upwash by wind speed changed by up to \(Self.text(table, 1))°") }
        factor("speed_factor", applied.speedFactor, learnt.speedFactor)
        if abs(learnt.speedSide - applied.speedSide) >= factorStep {
            said.append("speed_side \(Self.text(applied.speedSide, 4)) → \(Self.text(learnt.speedSide, 4))")
        }
        factor("aws_factor", applied.awsFactor, learnt.awsFactor)
        let card =
            stride(from: 0.0, to: 360, by: 15).map {
                abs(learnt.deviation.deviation($0) - applied.deviation.deviation($0))
            }.max() ?? 0
        if card >= angleStep { said.append("deviation changed by up to \(Self.text(card, 1))°") }
        switch (applied.leewayCoefficient, learnt.leewayCoefficient) {
        case (nil, let k?): said.append("leeway_coefficient \(Self.text(k, 1))")
        case (let a?, let b?) where abs(b / a - 1) >= leewayStep:
            said.append("leeway_coefficient \(Self.text(a, 1)) → \(Self.text(b, 1))")
        default: break
        }
        return said
    }

    /// Why what was learnt is not applied by itself, or nil: learnt without the newest days, it made their tacks'
    /// true wind jump more than the values as they were recorded did, or their tack bias larger and beyond the bound
    /// (``NewestDaysCheck``). Applied, it would have made the days it had not seen worse; what is applied stays.
    public func refusal(_ check: NewestDaysCheck?) -> String? {
        guard let check, check.isWorse else { return nil }
        let days = check.days == 1 ? "the newest day" : "the newest \(check.days) days"
        guard check.jumpsMore else {
            return "learnt without \(days), it left their \(check.tacks) tacks' bias at "
                + "\(Self.signed(check.biasCalibrated))° where it was \(Self.signed(check.biasUncalibrated))° without it"
        }
        return "learnt without \(days), it made their \(check.tacks) tacks' true wind jump "
            + "\(Self.text(check.jumpCalibrated, 1))° where they jumped \(Self.text(check.jumpUncalibrated, 1))° without it"
    }

    static func signed(_ value: Double) -> String { (value >= 0 ? "+" : "") + text(value, 1) }

    static func text(_ value: Double, _ decimals: Int) -> String { FixedDecimal.text(value, decimals: decimals) }
}
