/// Learns the instruments' calibration from ordinary sailing, from the invariants of a manoeuvre (docs/calibration.md):
///
/// - **Wind angle offset** (a masthead unit off the centreline): close-hauled, a boat points as high on one tack as
///   on the other, so the apparent wind angles just before and just after a tack are the same size; a unit turned by
///   e reads both e more to one side. Each tack gives `-(AWA before + AWA after) / 2`; the median is the offset.
/// - **Upwash** (upwind, from tacks; downwind, from gybes): the true wind direction is the same just before and just
///   after the manoeuvre. An angle read too wide on both tacks lifts the direction on one tack and heads it on the
///   other; signed by the side the boat came from, the jump is the same for every tack, while the wind's own shifts
///   cancel out of its median. The upwash added to the angle's size that brings the median signed jump to zero.
/// - **Upwash reaching**: the same invariant across the tacks and gybes with a reach on a side (``learnAngles``).
/// - **Speed factor** (the log): the current does not change across a manoeuvre. With ground velocity G and water
///   velocity W (heading, speed through water), `G - k W` is the same before and after, so `ΔG = k ΔW`; each
///   manoeuvre gives `k = ΔG·ΔW / |ΔW|²`, the median is the factor. By the side she heels to as well
///   (``speedSide(_:_:_:)``), the two learnt by turns. Steps in the log's reading between days (a paddle wheel fouled
///   or cleaned) are found first and the readings before each scaled to the log as it reads now (``logSteps(_:_:_:)``).
///
/// Each value comes with its standard error and the manoeuvres behind it; one outside its bounds is a sensor fault,
/// said and not applied. Learning is pure: the samples in, a report out.
public struct CalibrationLearner: Sendable {
    public var finder = ManoeuvreFinder()
    public var deviationLearner = DeviationLearner()
    /// Fewest manoeuvres for a value, and for a value sure enough to apply (a median of five says little of its own
    /// spread).
    public var minimumCount = 5
    public var sureCount = 8
    /// Sure when the standard error is within these (degrees; the factor's fraction).
    public var sureAngle = 1.0
    public var sureFactor = 0.015
    /// The wind speed's factor rests on gusts either side of a mark: sure within 3 %.
    public var sureWindSpeedFactor = 0.03
    /// Bounds beyond which a value is a broken sensor.
    public var offsetBound = 10.0
    public var upwashBound = 10.0
    public var factorBounds = 0.7...1.4
    /// Whether the report carries the check on the newest days (``newestDaysCheck(_:_:)``; a second learning).
    public var checksNewestDays = true

    public init() {}

    public func learn(_ samples: [SailingSample]) -> CalibrationReport {
        let faults = SensorCheck.faults(samples)
        let manoeuvres = finder.manoeuvres(in: samples)
        let tacks = manoeuvres.filter { $0.kind == .tack }
        let gybes = manoeuvres.filter { $0.kind == .gybe }
        var report = CalibrationReport(samples: samples.count, manoeuvres: manoeuvres, faults: faults)
        guard faults.isEmpty else {
            let fault = LearntValue.Status.sensorFault(faults.joined(separator: "; "))
            report.awaOffset = LearntValue(value: 0, uncertainty: .infinity, count: 0, status: fault)
            report.upwashUpwind = report.awaOffset
            report.upwashDownwind = report.awaOffset
            report.upwashReach = report.awaOffset
            report.speedFactor = LearntValue(value: 1, uncertainty: .infinity, count: 0, status: fault)
            report.speedSide = LearntValue(value: 0, uncertainty: .infinity, count: 0, status: fault)
            report.awsFactor = report.speedFactor
            return report
        }
        // The compass card first (it needs neither the wind nor the manoeuvres, and fits the log's factor for itself):
        // a card that differs between the two tacks' headings turns the true wind one way on one tack and the other
        // way on the other, which the upwash would otherwise learn. Then the log (it needs no wind), then the offset,
        // then the upwash on top of them: a log reading low narrows the true wind angle on both tacks as an upwash
        // does, so the upwash is learnt with the log corrected.
        var calibration = SailingCalibration()
        report.roundings = finder.roundings(in: samples)
        // Steps in the log's reading between days before anything else: every value after rests on the log.
        calibration.logSteps = logSteps(samples, manoeuvres, report.roundings)
        let deviation = deviationLearner.learn(samples, calibration)
        report.deviation = deviation
        if deviation.deviation.isSure {
            calibration.deviation = deviation.curve
            // The water's track each manoeuvre's log factor comes from turns with the card (the current it leaves
            // differs before and after a manoeuvre): the steps found again under it.
            calibration.logSteps = logSteps(
                samples, manoeuvres, report.roundings, under: SailingCalibration(deviation: deviation.curve))
        }
        // The leeway's coefficient, when the heel was known and it is sure and likely (a boat's K is 5 to 20 or so).
        if deviation.leewayByHeel, deviation.leeway.isSure, (2.0...30).contains(deviation.leeway.value) {
            calibration.leewayCoefficient = deviation.leeway.value
        }
        learnLog(samples, manoeuvres + report.roundings, &report, &calibration)
        report.awaOffset = offset(samples, tacks)
        if report.awaOffset.isSure { calibration.awaOffset = report.awaOffset.value }
        // The wind speed's factor and the upwash upwind, downwind and reaching, by turns until none moves (eight
        // rounds at most): each changes what the others see.
        var rounds = 0
        while rounds < 8, learnAngles(samples, tacks: tacks, gybes: gybes, &report, &calibration) { rounds += 1 }
        // By wind speed, where two bands or more are sure, by turns with the wind speed's factor.
        learnByWind(samples, tacks: tacks, gybes: gybes, &report, &calibration)
        report.awsFactor = withWindFallback(report.awsFactor, calibration)
        report.calibration = calibration
        if checksNewestDays { report.newestDays = newestDaysCheck(samples, tacks) }
        return report
    }

    func offset(_ samples: [SailingSample], _ tacks: [Manoeuvre]) -> LearntValue {
        guard tacks.count >= minimumCount else { return .none(0, count: tacks.count) }
        let identity = SailingCalibration()
        let each = tacks.map { tack in
            -(WindowMeans(samples, tack.before, identity).apparentAngle
                + WindowMeans(samples, tack.after, identity).apparentAngle) / 2
        }
        return judged(
            RobustStatistics.median(each), RobustStatistics.medianError(each), count: each.count, sure: sureAngle,
            bound: offsetBound, fault: "the wind angle is off the centreline by")
    }

    /// The upwash upwind (from `manoeuvres`' tacks) or downwind (gybes) on top of `calibration`
    /// (``upwash(_:_:_:_:)``).
    func upwash(_ samples: [SailingSample], _ manoeuvres: [Manoeuvre], _ calibration: SailingCalibration, upwind: Bool)
        -> LearntValue
    {
        upwash(samples, manoeuvres, calibration, upwind ? .upwind : .downwind)
    }

    /// The log's factor on top of `calibration` (its card and leeway; its own factor left out).
    func speedFactor(_ samples: [SailingSample], _ manoeuvres: [Manoeuvre], _ calibration: SailingCalibration)
        -> LearntValue
    {
        var base = calibration
        base.speedFactor = 1
        let each = WaterChange.all(samples, manoeuvres, base).compactMap { $0.factor }
        guard each.count >= minimumCount else { return .none(1, count: each.count) }
        let value = RobustStatistics.median(each)
        let error = RobustStatistics.medianError(each)
        guard factorBounds.contains(value) else {
            return LearntValue(
                value: value, uncertainty: error, count: each.count,
                status: .sensorFault(
                    "the log reads \(Int(((1 / value - 1) * 100).rounded())) % off: a fouled or broken paddle wheel"))
        }
        guard let step = calibration.logSteps.last, step.provisional else {
            return LearntValue(
                value: value, uncertainty: error, count: each.count,
                status: error <= sureFactor && each.count >= sureCount ? .sure : .unsure)
        }
        // The log as it reads since the newest day's step: as sure as that step's few manoeuvres say it, and applied
        // however sure, as what it replaces is surely wrong.
        let since = (error * error + value * value * step.ratioError * step.ratioError).squareRoot()
        let why =
            "the log changed on the newest day, \(step.countAfter) manoeuvres say so; applied until a day's sailing confirms it"
        return LearntValue(
            value: value, uncertainty: since, count: each.count,
            status: since <= sureFactor && each.count >= sureCount ? .sure : .provisional(why))
    }

    func judged(_ value: Double, _ error: Double, count: Int, sure: Double, bound: Double, fault: String)
        -> LearntValue
    {
        guard abs(value) <= bound else {
            return LearntValue(
                value: value, uncertainty: error, count: count,
                status: .sensorFault(
                    "\(fault) \(FixedDecimal.text(value, decimals: 0))°: a broken or misaligned sensor, not applied"))
        }
        return LearntValue(
            value: value, uncertainty: error, count: count,
            status: error <= sure && count >= sureCount ? .sure : .unsure)
    }
}
