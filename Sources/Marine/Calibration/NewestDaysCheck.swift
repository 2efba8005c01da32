/// The calibration learnt without the boat's newest days, judged on them: whether it would have made their tacks'
/// true wind jump more than the instruments as they read (``CalibrationLearner/newestDaysCheck(_:_:)``).
///
/// A boat's instruments do not read alike from day to day (a masthead unit refitted after a winter, a paddle wheel
/// fouled, the sails changed), and a value sure on the days it was learnt from can be wrong on the next: on Irene's
/// days, learnt day after day, the next day's tacks jumped more with the calibration than without (docs/calibration.md).
/// The days a learning has not seen are the only honest judge of it; the newest are the nearest to the days to come.
/// `auto` applies nothing the check says is worse (``AutoCalibration``).
public struct NewestDaysCheck: Hashable, Sendable {
    /// The first second of the newest days held out, and how many days they are.
    public var from: Double
    public var days: Int
    /// Their tacks, and the seconds of sailing learnt from (every day before them).
    public var tacks: Int
    public var learntFrom: Int
    /// Their tacks' median signed jump and median size (degrees), without and with the calibration learnt before them.
    public var biasUncalibrated: Double
    public var biasCalibrated: Double
    public var jumpUncalibrated: Double
    public var jumpCalibrated: Double

    public init(
        from: Double, days: Int, tacks: Int, learntFrom: Int, uncalibrated: (bias: Double, size: Double),
        calibrated: (bias: Double, size: Double)
    ) {
        self.from = from
        self.days = days
        self.tacks = tacks
        self.learntFrom = learntFrom
        biasUncalibrated = uncalibrated.bias
        biasCalibrated = calibrated.bias
        jumpUncalibrated = uncalibrated.size
        jumpCalibrated = calibrated.size
    }

    /// The tack bias a calibration may leave on the days it had not seen: the goal of docs/calibration.md.
    public static let biasBound = 2.0

    /// The calibration made the newest days' tacks jump more than no calibration did, or left their tack bias
    /// beyond ±``biasBound`` and larger than it was without it (the jumps a little smaller, every tack one way).
    public var isWorse: Bool { jumpsMore || biasesMore }

    /// Their tacks' true wind jumped more with the calibration than without it.
    public var jumpsMore: Bool { jumpCalibrated > jumpUncalibrated }

    /// Their tack bias is beyond ±``biasBound`` with the calibration, and larger than without it.
    public var biasesMore: Bool { abs(biasCalibrated) > max(Self.biasBound, abs(biasUncalibrated)) }

    /// `worse` or `not worse`, as the report says it.
    public var says: String { isWorse ? "worse" : "not worse" }
}
