/// One second of sailing as the instruments said it, before any calibration: what the calibration learner reads
/// (``CalibrationLearner``). Angles in degrees, speeds in knots.
public struct SailingSample: Hashable, Sendable {
    /// Seconds (any epoch, increasing).
    public var time: Double
    /// Apparent wind angle, signed, positive starboard, as the masthead unit says it.
    public var awa: Double
    /// Apparent wind speed.
    public var aws: Double
    /// Speed through water, as the log says it.
    public var stw: Double
    /// Heading, true (a magnetic heading with the variation the instruments give).
    public var heading: Double
    /// Course and speed over ground, when a fix came that second.
    public var cog: Double?
    public var sog: Double?
    /// Heel (degrees, positive starboard down) when an attitude sensor gave it: the engine corrects the masthead
    /// unit's tilt with it, and so does the learner.
    public var heel: Double?
    /// The true wind angle the boat's own instruments computed (MWV T, signed), when a log carries it: what the
    /// sailor saw on the mast's displays, judged beside Telltale's (``CalibrationReport/instrumentBias(_:_:)``).
    public var instrumentTrueAngle: Double?

    public init(
        time: Double, awa: Double, aws: Double, stw: Double, heading: Double, cog: Double?, sog: Double?,
        heel: Double? = nil, instrumentTrueAngle: Double? = nil
    ) {
        self.time = time
        self.awa = awa
        self.aws = aws
        self.stw = stw
        self.heading = heading
        self.cog = cog
        self.sog = sog
        self.heel = heel
        self.instrumentTrueAngle = instrumentTrueAngle
    }
}
