import SignalK

/// What a boat sends ashore, in groups a sailor names (`[uplink] send`), each at its own rate (`[uplink.rates]`):
/// Signal K's paths, so a fleet tool reads them without knowing Telltale.
public enum UplinkGroup: String, CaseIterable, Hashable, Sendable {
    case position, wind, attitude, depth, weather, race, alarms, ais, anchor

    /// The Signal K paths of the group (a path ending in `.` is a prefix).
    public var paths: [String] {
        switch self {
        case .position:
            [
                "navigation.position", "navigation.speedOverGround", "navigation.courseOverGroundTrue",
                "navigation.headingTrue", "navigation.speedThroughWater",
            ]
        case .wind:
            [
                "environment.wind.speedTrue", "environment.wind.directionTrue", "environment.wind.angleApparent",
                "environment.wind.speedApparent", "environment.wind.gust", "telltale.wind.forecast",
            ]
        case .attitude: ["navigation.attitude", "navigation.rateOfTurn"]
        case .depth: ["environment.depth.belowTransducer"]
        case .weather:
            [
                "environment.outside.pressure", "environment.outside.pressureTendency",
                "environment.outside.pressureChange",
            ]
        case .race:
            [
                "navigation.racing.timeToStart", "navigation.racing.distanceStartline", "performance.polarSpeedRatio",
                "navigation.course.calcValues.distance", "navigation.course.calcValues.timeToGo",
            ]
        case .alarms: ["notifications."]
        case .ais: ["ais.count", "ais.closest"]
        // The anchor watch's circle, for the shore's own watch of it (withdrawn: the anchor is up).
        case .anchor: ["navigation.anchor.position", "navigation.anchor.maxRadius"]
        }
    }

    /// Seconds between two samples of a value, by default; alarms go when they change.
    public var defaultInterval: Double {
        switch self {
        case .position, .wind, .attitude: 10
        case .depth: 30
        case .weather: 60
        case .race: 5
        case .alarms: 0
        case .ais: 60
        case .anchor: 10
        }
    }
}

/// A value sent ashore: a Signal K path, its value, the time it was measured (not sent), its source.
public struct UplinkSample: Hashable, Sendable {
    public var path: String
    public var value: SignalKValue
    /// RFC 3339, the value's own time.
    public var timestamp: String
    public var source: String

    public init(path: String, value: SignalKValue, timestamp: String, source: String) {
        self.path = path
        self.value = value
        self.timestamp = timestamp
        self.source = source
    }

    /// An alarm's: never thinned from the queue.
    public var isAlarm: Bool { path.hasPrefix("notifications.") }

    /// `{"value": ..., "timestamp": ..., "$source": ...}`: what its retained topic holds.
    public var json: String {
        var out = JSONWriter()
        out.beginObject()
        value.write("value", to: &out)
        out.value("timestamp", timestamp)
        out.value("$source", source)
        out.endObject()
        return out.text
    }
}
