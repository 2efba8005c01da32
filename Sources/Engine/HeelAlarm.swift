/// Heel alarms: "too much heel" and "the boat is too flat", on the damped mean heel, with hysteresis and a hold
/// time so that one wave does not raise or clear them.
public struct HeelAlarmSettings: Hashable, Sendable {
    /// Degrees of mean heel (either side) above which "too much heel" is raised; nil switches it off.
    public var overHeel: Double? = 25
    /// Degrees of mean heel below which "too flat" is raised (only while sailing: speed through water above
    /// `minimumSpeed`); nil switches it off.
    public var underHeel: Double?
    /// Degrees the heel must come back past the threshold before the alarm clears.
    public var hysteresis = 2.0
    /// Seconds a condition must hold before the alarm changes.
    public var hold = 5.0
    /// Knots through the water below which "too flat" is not judged (a boat at anchor is flat).
    public var minimumSpeed = 2.0
    /// ALR alarm numbers.
    public var overHeelNumber = 101
    public var underHeelNumber = 102
    /// What is said aloud when an alarm is raised (the sailor's own words from the configuration); nil says
    /// "heel over 25 degrees".
    public var overHeelSpoken: String?
    public var underHeelSpoken: String?

    public init() {}
}

/// The state of one alarm, advanced on each tick.
struct AlarmLatch: Sendable {
    private(set) var isActive = false
    /// A crew member has acknowledged the active alarm (ALR's acknowledge flag); a new raise clears it.
    var isAcknowledged = false
    private var pendingSince: Double?
    /// When the state last changed (ALR's time field).
    private(set) var changedAt: Double?

    /// Advances with whether the raise condition and the clear condition hold now. Returns true when it changed.
    mutating func update(raise: Bool, clear: Bool, hold: Double, at now: Double) -> Bool {
        let wantsChange = isActive ? clear : raise
        guard wantsChange else {
            pendingSince = nil
            return false
        }
        let since = pendingSince ?? now
        pendingSince = since
        guard now - since >= hold else { return false }
        isActive.toggle()
        isAcknowledged = false
        pendingSince = nil
        changedAt = now
        return true
    }
}
