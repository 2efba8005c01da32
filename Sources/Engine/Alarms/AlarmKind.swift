import Marine

/// Every alarm the engine can raise. Each goes out as ALR (its own number, with its acknowledge state) and TXT, as a
/// Signal K notification (`notifications.<path>`), on the panel, and aloud.
public enum AlarmKind: Int, CaseIterable, Hashable, Sendable {
    /// Mean heel over the limit (``AlarmSettings/overHeel``).
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
    /// An AIS target closing to within ``AlarmSettings/collisionDistance`` inside ``AlarmSettings/collisionTime``.
    case collision
    /// An AIS-SART, MOB device or EPIRB transmitting in range.
    case aisDistress
    /// The boat outside the anchor's circle for longer than ``AnchorSettings/hold``: the anchor is dragging.
    case anchorDrag
    /// The barometer falling faster than ``AlarmSettings/pressureFall`` over three hours: a gale may be coming.
    case pressureFall
    /// The autopilot stopped steering while engaged: it dropped to standby without the crew asking (through
    /// Telltale) or went off-line; cleared when it is engaged again.
    case autopilot
    /// At anchor, less water than ``AlarmSettings/lowWater`` under the keel at the next low water (the tide's
    /// prediction where the boat lies): listed once the anchor is down with a tide prediction and a sounding.
    case lowWater

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
        case .collision: "collision"
        case .aisDistress: "ais_distress"
        case .anchorDrag: "anchor"
        case .pressureFall: "pressure_fall"
        case .autopilot: "autopilot"
        case .lowWater: "low_water"
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
        case .collision: "navigation.closestApproach"
        case .aisDistress: "navigation.distress"
        case .anchorDrag: "navigation.anchor"
        case .pressureFall: "environment.outside.pressure"
        case .autopilot: "steering.autopilot.state"
        case .lowWater: "environment.tide.depthAtLow"
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
        case .collision: 161
        case .aisDistress: 162
        case .anchorDrag: 171
        case .pressureFall: 181
        case .autopilot: 191
        case .lowWater: 172
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

    /// Raised only once what it watches has been there: a sensor group received, a start line set, an AIS station
    /// heard, an anchor dropped. Until then it is not listed at all (a sensor never fitted is not lost).
    var waitsToBeSeen: Bool {
        lostGroup != nil || self == .overEarly || self == .collision || self == .aisDistress || self == .anchorDrag
            || self == .pressureFall || self == .autopilot || self == .lowWater
    }

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

    /// The alarm a person or an app names: its configuration name (`shallow`), its default ALR number (`131`), or its
    /// Signal K path with or without `notifications.` (`environment.depth.belowTransducer`).
    public static func parse(_ word: String) -> AlarmKind? {
        if let kind = named(word) { return kind }
        if let number = Int(word), let kind = allCases.first(where: { $0.defaultNumber == number }) { return kind }
        let path = word.hasPrefix("notifications.") ? String(word.dropFirst("notifications.".count)) : word
        return allCases.first { $0.path == path }
    }
}
