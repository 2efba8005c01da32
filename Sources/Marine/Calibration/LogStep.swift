/// A step in the log's reading between two days of sailing: a paddle wheel cleaned, fouled by weed, or refitted. The
/// learner finds it from the factor each manoeuvre says (``CalibrationLearner/logSteps(_:_:)``) and learns the
/// calibration of the log as it reads since the last step, the readings before it scaled to it.
public struct LogStep: Hashable, Sendable {
    /// The first second of sailing read as it is since the step (the sample's time).
    public var time: Double
    /// The factor before the step over the factor since: multiplies a reading from before `time`, on top of the
    /// calibration's factor (1.2 when the log read 20 % lower then than it does since, relative to the ground).
    public var ratio: Double
    /// The same for the apparent wind speed: with the log's when the masthead unit's speed was read as the log was
    /// (an instrument processor's speed setting scales both, and the triangle with them), 1 when the log's alone
    /// stepped (a paddle wheel fouled or cleaned), as the bear-aways and round-ups, and the tacks, say
    /// (``CalibrationLearner/windRatios(_:_:_:_:)``).
    public var windRatio = 1.0
    /// Whether the roundings or the tacks before it told the wind speed's part (false: too few, or not clearly; taken
    /// to have stepped with the log, ``CalibrationLearner/windRatios(_:_:_:_:)``).
    public var windTold = false
    /// The factors the manoeuvres either side say (their medians, each side as far as the next step), and how many.
    public var factorBefore: Double
    public var factorAfter: Double
    public var countBefore: Int
    public var countAfter: Int
    /// The ratio's standard error, as a fraction of it (the two medians' errors, with the days' spread).
    public var ratioError = 0.0
    /// Whether it was seen on the newest day from fewer manoeuvres than a step between days needs
    /// (``CalibrationLearner/sureCount``): the log's factor learnt since is applied as provisional.
    public var provisional = false

    public init(
        time: Double, ratio: Double, factorBefore: Double, factorAfter: Double, countBefore: Int, countAfter: Int
    ) {
        self.time = time
        self.ratio = ratio
        self.factorBefore = factorBefore
        self.factorAfter = factorAfter
        self.countBefore = countBefore
        self.countAfter = countAfter
    }
}

extension SailingCalibration {
    /// The speed through water of a sample as ``speed(_:awa:)`` corrects it, and, read before a step of the log's
    /// (``logSteps``), scaled to the log as it reads since the last one.
    public func speed(of sample: SailingSample) -> Double {
        var speed = self.speed(sample.stw, awa: sample.awa)
        for step in logSteps where sample.time < step.time { speed *= step.ratio }
        return speed
    }

    /// The apparent wind speed of a sample as ``windSpeed(_:)`` corrects it, and, read before a step that scaled it
    /// with the log (``LogStep/windRatio``), scaled to it as it reads since.
    public func windSpeed(of sample: SailingSample) -> Double {
        windSpeed(sample.aws) * windScale(sample)
    }
}

extension SailingCalibration {
    /// The calibration as it applies to readings taken at `unixTime` (UTC, UNIX seconds): every step after that instant
    /// folded into the log's and the wind speed's factors, as ``speed(of:)`` and ``windSpeed(of:)`` scale a sample of
    /// then, and no steps left. A replay of a log recorded before the paddle wheel was cleaned reads the log as it read
    /// then; with no time (the clock not known yet), or after every step, the factors as the log reads now.
    public func at(_ unixTime: Double?) -> SailingCalibration {
        var dated = self
        dated.logSteps = []
        guard let unixTime else { return dated }
        for step in logSteps where unixTime < step.time {
            dated.speedFactor *= step.ratio
            dated.awsFactor *= step.windRatio
        }
        return dated
    }

    /// What the steps before a sample's time scale its apparent wind speed by (1 with none).
    func windScale(_ sample: SailingSample) -> Double {
        var scale = 1.0
        for step in logSteps where sample.time < step.time { scale *= step.windRatio }
        return scale
    }
}
