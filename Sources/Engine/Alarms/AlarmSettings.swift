/// What raises each alarm, and what the crew hears and reads of it. One place for every alarm: the heel alarms'
/// `hold` and `hysteresis` serve the XTE and wind-shift alarms too.
public struct AlarmSettings: Hashable, Sendable {
    /// Degrees of mean heel (either side) above which "too much heel" is raised; nil switches it off.
    public var overHeel: Double? = 25
    /// Degrees of mean heel below which "too flat" is raised (only while sailing: speed through water above
    /// `minimumSpeed`); nil switches it off.
    public var underHeel: Double?
    /// Degrees the heel (or the wind shift) must come back past the threshold before the alarm clears.
    public var hysteresis = 2.0
    /// Seconds a condition must hold before the heel, XTE or wind-shift alarm changes.
    public var hold = 5.0
    /// Knots through the water below which "too flat" is not judged (a boat at anchor is flat).
    public var minimumSpeed = 2.0
    /// ALR numbers of the heel alarms (the others have their own, ``AlarmKind/defaultNumber``).
    public var overHeelNumber = 101
    public var underHeelNumber = 102
    /// Groups whose loss raises an alarm, once the group has been received at all (a sensor never fitted is not
    /// lost).
    public var sensorLost: Set<QuantityGroup> = Set(QuantityGroup.allCases)
    /// Metres of cross-track error over which the XTE alarm is raised; nil switches it off.
    public var crossTrackLimit: Double?
    /// Raise an alarm at each waypoint reached.
    public var arrival = true
    /// Seconds an arrival alarm stays active.
    public var arrivalDuration = 30.0
    /// Metres below the transducer under which the shallow alarm is raised; nil switches it off.
    public var shallow: Double?
    /// Degrees the true wind direction must move from its mean to raise the wind-shift alarm; nil switches it off.
    public var windShift: Double?
    /// Seconds over which the mean wind direction is taken.
    public var windShiftWindow = 300.0
    /// Raise an alarm when the bow is over the start line at the gun (once a line is set).
    public var overEarly = true
    /// Metres: an AIS target whose closest approach is nearer than this within ``collisionTime`` raises the
    /// collision alarm; nil switches it off. Half a mile.
    public var collisionDistance: Double? = 926
    /// Seconds ahead the collision alarm looks. Ten minutes.
    public var collisionTime = 600.0
    /// Raise an alarm for an AIS-SART, MOB device or EPIRB in range.
    public var aisDistress = true
    /// Raise the drag alarm while the anchor watch is set (``AnchorSettings`` says how it judges).
    public var anchor = true
    /// Pascals the barometer must fall in three hours to raise the pressure-fall alarm (the classic gale sign,
    /// 3 hPa); nil switches it off.
    public var pressureFall: Double? = 300
    /// The autopilot alarm (``AlarmKind/autopilot``), listed once a pilot is heard.
    public var autopilot = true
    /// Metres: at anchor, less water than this under the keel (or the transducer, with no draft set) at the next low
    /// water raises the low-water alarm; nil switches it off.
    public var lowWater: Double? = 0.5
    /// The sailor's own words for an alarm's text (ALR, TXT, Signal K, the panel) and for what is said aloud.
    public var text: [AlarmKind: String] = [:]
    public var spoken: [AlarmKind: String] = [:]

    public init() {}

    /// Whether the configuration switches an alarm on.
    public func watches(_ kind: AlarmKind) -> Bool {
        switch kind {
        case .overHeel: overHeel != nil
        case .underHeel: underHeel != nil
        case .crossTrack: crossTrackLimit != nil
        case .arrival: arrival
        case .shallow: shallow != nil
        case .windShift: windShift != nil
        case .overEarly: overEarly
        case .collision: collisionDistance != nil
        case .aisDistress: aisDistress
        case .anchorDrag: anchor
        case .pressureFall: pressureFall != nil
        case .autopilot: autopilot
        case .lowWater: lowWater != nil
        default: kind.lostGroup.map { sensorLost.contains($0) } ?? false
        }
    }

    /// The ALR number of an alarm.
    public func number(_ kind: AlarmKind) -> Int {
        switch kind {
        case .overHeel: overHeelNumber
        case .underHeel: underHeelNumber
        default: kind.defaultNumber
        }
    }
}
