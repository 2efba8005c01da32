/// Heel alarms: "too much heel" and "the boat is too flat", on the damped mean heel, with hysteresis and a hold
/// time so that one wave does not raise or clear them. The hold and hysteresis also serve the XTE and wind-shift
/// alarms (``AlarmSettings``).
public struct HeelAlarmSettings: Hashable, Sendable {
    /// Degrees of mean heel (either side) above which "too much heel" is raised; nil switches it off.
    public var overHeel: Double? = 25
    /// Degrees of mean heel below which "too flat" is raised (only while sailing: speed through water above
    /// `minimumSpeed`); nil switches it off.
    public var underHeel: Double?
    /// Degrees the heel (or the wind shift) must come back past the threshold before the alarm clears.
    public var hysteresis = 2.0
    /// Seconds a condition must hold before the alarm changes.
    public var hold = 5.0
    /// Knots through the water below which "too flat" is not judged (a boat at anchor is flat).
    public var minimumSpeed = 2.0
    /// ALR alarm numbers.
    public var overHeelNumber = 101
    public var underHeelNumber = 102

    public init() {}
}
