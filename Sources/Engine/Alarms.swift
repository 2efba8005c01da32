import Marine

/// Every alarm the engine can raise. Each goes out as ALR (its own number, with its acknowledge state) and TXT, as a
/// Signal K notification (`notifications.<path>`), on the panel, and aloud.
public enum AlarmKind: Int, CaseIterable, Hashable, Sendable {
    /// Mean heel over the limit (``HeelAlarmSettings``).
    case overHeel
    /// Mean heel under the limit while sailing.
    case underHeel
    /// A quantity group that was being received has none of its inputs current (past its timeout); cleared when
    /// one is back.
    case windLost
    case headingLost
    case speedLost
    case positionLost
    case depthLost
    case attitudeLost
    /// Cross-track error of the active leg over the limit.
    case crossTrack
    /// A waypoint of the active route reached (its arrival confirmed); cleared after ``AlarmSettings/arrivalDuration``.
    case arrival
    /// Depth below the transducer under the limit.
    case shallow
    /// True wind direction more than the limit away from its mean over the window.
    case windShift
    /// The bow over the start line at the gun; cleared when back behind it, or 2 minutes after the gun.
    case overEarly

    /// The configuration's name (`[alarms.text]`, `[alarms.spoken]`).
    public var name: String {
        switch self {
        case .overHeel: "over_heel"
        case .underHeel: "under_heel"
        case .windLost: "wind_lost"
        case .headingLost: "heading_lost"
        case .speedLost: "speed_lost"
        case .positionLost: "position_lost"
        case .depthLost: "depth_lost"
        case .attitudeLost: "attitude_lost"
        case .crossTrack: "xte"
        case .arrival: "arrival"
        case .shallow: "shallow"
        case .windShift: "wind_shift"
        case .overEarly: "over_early"
        }
    }

    /// Below `notifications.` in Signal K: the data path the alarm is about, where there is one.
    public var path: String {
        switch self {
        case .overHeel: "heel.over"
        case .underHeel: "heel.under"
        case .windLost: "sensor.wind"
        case .headingLost: "sensor.heading"
        case .speedLost: "sensor.speed"
        case .positionLost: "sensor.position"
        case .depthLost: "sensor.depth"
        case .attitudeLost: "sensor.attitude"
        case .crossTrack: "navigation.course.crossTrackError"
        case .arrival: "navigation.course.arrivalCircleEntered"
        case .shallow: "environment.depth.belowTransducer"
        case .windShift: "environment.wind.directionTrue"
        case .overEarly: "navigation.racing.overEarly"
        }
    }

    /// The ALR number for the alarms whose number is not configured (the heel alarms' are).
    public var defaultNumber: Int {
        switch self {
        case .overHeel: 101
        case .underHeel: 102
        case .windLost: 111
        case .headingLost: 112
        case .speedLost: 113
        case .positionLost: 114
        case .depthLost: 115
        case .attitudeLost: 116
        case .crossTrack: 121
        case .arrival: 122
        case .shallow: 131
        case .windShift: 141
        case .overEarly: 151
        }
    }

    /// The quantity group a sensor-lost alarm watches.
    public var lostGroup: QuantityGroup? {
        switch self {
        case .windLost: .wind
        case .headingLost: .heading
        case .speedLost: .speed
        case .positionLost: .position
        case .depthLost: .depth
        case .attitudeLost: .attitude
        default: nil
        }
    }

    /// Raised only once what it watches has been there: a sensor group received, a start line set. Until then it is
    /// not listed at all (a sensor never fitted is not lost).
    var waitsToBeSeen: Bool { lostGroup != nil || self == .overEarly }

    /// The sensor-lost alarm of a group.
    public static func lost(_ group: QuantityGroup) -> AlarmKind {
        switch group {
        case .wind: .windLost
        case .heading: .headingLost
        case .speed: .speedLost
        case .position: .positionLost
        case .depth: .depthLost
        case .attitude: .attitudeLost
        }
    }

    public static func named(_ name: String) -> AlarmKind? { allCases.first { $0.name == name } }
}

/// The alarms besides heel (``HeelAlarmSettings``, whose `hold` and `hysteresis` the judged alarms here share).
public struct AlarmSettings: Hashable, Sendable {
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
    /// The sailor's own words for an alarm's text (ALR, TXT, Signal K, the panel) and for what is said aloud.
    public var text: [AlarmKind: String] = [:]
    public var spoken: [AlarmKind: String] = [:]

    public init() {}
}

/// The state of one alarm, advanced on each tick.
struct AlarmLatch: Sendable {
    private(set) var isActive = false
    /// A crew member has acknowledged the active alarm (ALR's acknowledge flag); a new raise clears it.
    private(set) var isAcknowledged = false
    private var pendingSince: Double?
    /// When the state last changed (ALR's time field).
    private(set) var changedAt: Double?
    /// When it was last acknowledged (an ALR goes out at once to show it).
    private(set) var acknowledgedAt: Double?

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

    /// Acknowledges it if active and not yet acknowledged; true when it was.
    mutating func acknowledge(at now: Double) -> Bool {
        guard isActive && !isAcknowledged else { return false }
        isAcknowledged = true
        acknowledgedAt = now
        return true
    }
}

/// The true wind direction's circular mean over a window, sampled every 10 s into fixed storage, for the wind-shift
/// alarm.
struct WindShiftTracker: Sendable {
    static let sampleInterval = 10.0
    private var samples: [PlaneVector]
    private var times: [Double]
    private var next = 0
    private var lastSample = -Double.infinity
    private let window: Double
    /// The mean direction of the samples within the window, when there are enough of them (half the window).
    private(set) var mean: Double?

    init(window: Double) {
        self.window = max(window, Self.sampleInterval)
        let capacity = Int((self.window / Self.sampleInterval).rounded(.up))
        samples = Array(repeating: PlaneVector(x: 0, y: 0), count: capacity)
        times = Array(repeating: -.infinity, count: capacity)
    }

    /// Takes the direction at `now` (degrees true, nil when unknown); returns the signed shift from the mean,
    /// degrees, positive veering (clockwise), or nil while the mean is not known.
    mutating func shift(direction: Double?, at now: Double) -> Double? {
        guard let direction else { return nil }
        if now - lastSample >= Self.sampleInterval {
            lastSample = now
            samples[next] = PlaneVector(magnitude: 1, angle: direction)
            times[next] = now
            next = (next + 1) % times.count
            var sum = PlaneVector(x: 0, y: 0)
            var count = 0
            for index in 0..<times.count where now - times[index] < window {
                sum = sum + samples[index]
                count += 1
            }
            // Half the window seen, and a wind that has a direction (not boxing the compass in a calm).
            let steady = sum.magnitude > 0.2 * Double(count)
            mean = count * 2 >= times.count && steady ? Angle.direction(sum.angle) : nil
        }
        guard let mean else { return nil }
        return Angle.relative(direction - mean)
    }
}
