/// What the calibration learner found in a stretch of sailing (``CalibrationLearner``).
public struct CalibrationReport: Sendable {
    public var samples: Int
    public var manoeuvres: [Manoeuvre]
    /// Sensor faults that stopped the learning ("the wind angle is stuck at 45°").
    public var faults: [String]
    public var awaOffset = LearntValue.none(0, count: 0)
    public var upwashUpwind = LearntValue.none(0, count: 0)
    public var upwashDownwind = LearntValue.none(0, count: 0)
    /// The upwash reaching, from the manoeuvres with a reach on a side.
    public var upwashReach = LearntValue.none(0, count: 0)
    /// The upwash by wind speed band (``UpwashBand``).
    public var upwashBands: [UpwashBand] = []
    public var speedFactor = LearntValue.none(1, count: 0)
    /// The log's factor by the side she heels to (``SailingCalibration/speedSide``).
    public var speedSide = LearntValue.none(0, count: 0)
    /// The apparent wind speed's factor, from the bear-aways and round-ups (``roundings``).
    public var awsFactor = LearntValue.none(1, count: 0)
    public var roundings: [Manoeuvre] = []
    /// The heading's deviation by heading and the leeway, from steady pieces of legs (``DeviationLearner``).
    public var deviation: DeviationReport?
    /// The calibration learnt without the newest days, judged on them (nil: one day, or too few tacks).
    public var newestDays: NewestDaysCheck?
    /// The sure values together, the others left at no correction.
    public var calibration = SailingCalibration()

    public init(samples: Int, manoeuvres: [Manoeuvre], faults: [String]) {
        self.samples = samples
        self.manoeuvres = manoeuvres
        self.faults = faults
    }

    /// Each manoeuvre's change of true wind direction (after minus before, degrees), signed by the side the boat
    /// came from: an angle read too wide makes it the same for every tack, the wind's own shifts do not.
    /// `bounded`: the calibration as the engine applies it (``WindowMeans/init(_:_:_:bounded:)``).
    public static func signedJumps(
        _ samples: [SailingSample], _ manoeuvres: [Manoeuvre], _ calibration: SailingCalibration,
        bounded: Bool = false
    ) -> [Double] {
        manoeuvres.map { m in
            m.sideBefore * jump(samples, m, calibration, bounded: bounded)
        }
    }

    /// The change of true wind direction across a manoeuvre (after minus before, degrees).
    public static func jump(
        _ samples: [SailingSample], _ m: Manoeuvre, _ calibration: SailingCalibration, bounded: Bool = false
    ) -> Double {
        Angle.difference(
            from: WindowMeans(samples, m.before, calibration, bounded: bounded).trueDirection,
            to: WindowMeans(samples, m.after, calibration, bounded: bounded).trueDirection)
    }

    /// The tack bias (the median signed jump across tacks, or gybes) and the median size of the jumps, degrees, with
    /// the calibration as the engine applies it (each second within ``SailingCalibration/largestTurn``).
    public static func bias(
        _ samples: [SailingSample], _ manoeuvres: [Manoeuvre], _ calibration: SailingCalibration
    ) -> (bias: Double, size: Double) {
        let jumps = signedJumps(samples, manoeuvres, calibration, bounded: true)
        return (RobustStatistics.median(jumps), RobustStatistics.median(jumps.map { abs($0) }))
    }

    /// The same for the true wind the boat's own instruments computed (MWV T on the heading as sampled, no calibration
    /// of Telltale's): over the manoeuvres whose windows carry it in every second; `count` says how many.
    public static func instrumentBias(
        _ samples: [SailingSample], _ manoeuvres: [Manoeuvre]
    ) -> (bias: Double, size: Double, count: Int) {
        var jumps: [Double] = []
        for m in manoeuvres {
            guard let before = instrumentDirection(samples, m.before), let after = instrumentDirection(samples, m.after)
            else { continue }
            jumps.append(m.sideBefore * Angle.difference(from: before, to: after))
        }
        return (RobustStatistics.median(jumps), RobustStatistics.median(jumps.map { abs($0) }), jumps.count)
    }

    /// The mean true wind direction the boat's own instruments gave over `range` (degrees), nil unless every second
    /// of it carries their MWV T.
    public static func instrumentDirection(_ samples: [SailingSample], _ range: Range<Int>) -> Double? {
        var sum = PlaneVector(x: 0, y: 0)
        for sample in samples[range] {
            guard let angle = sample.instrumentTrueAngle else { return nil }
            sum = sum + PlaneVector(magnitude: 1, angle: sample.heading + angle)
        }
        return range.isEmpty ? nil : Angle.direction(sum.angle)
    }

    /// The true wind speed downwind less upwind across each bear-away and round-up (knots).
    public static func windSpeedDifferences(
        _ samples: [SailingSample], _ roundings: [Manoeuvre], _ calibration: SailingCalibration
    ) -> [Double] {
        roundings.map { m in
            let before = WindowMeans(samples, m.before, calibration).trueSpeed
            let after = WindowMeans(samples, m.after, calibration).trueSpeed
            return m.kind == .bearAway ? after - before : before - after
        }
    }

    /// Their median: zero when the wind speed reads right.
    public static func windSpeedBias(
        _ samples: [SailingSample], _ roundings: [Manoeuvre], _ calibration: SailingCalibration
    ) -> Double { RobustStatistics.median(windSpeedDifferences(samples, roundings, calibration)) }
}
