import Marine

/// The start line: the port end (usually the pin) and the starboard end (usually the committee boat), pinged from
/// the boat's bow or taken from two waypoints.
public struct StartLine: Hashable, Sendable {
    public enum End: String, Hashable, Sendable {
        case port
        case starboard
    }

    public var port: GeoPoint?
    public var starboard: GeoPoint?

    public init(port: GeoPoint? = nil, starboard: GeoPoint? = nil) {
        self.port = port
        self.starboard = starboard
    }

    /// The ends from waypoints: named `port`/`pin` and `starboard`/`stbd`/`committee`/`boat` (any case), else the first
    /// is the port end and the second the starboard end. Nil with fewer than two.
    public init?(waypoints: [Waypoint]) {
        func named(_ names: [String]) -> Waypoint? {
            // ASCII letters folded by hand: `lowercased()` needs Unicode tables the Pi build does not carry.
            let ids = waypoints.map { Array($0.id.utf8).map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 } }
            let index = ids.firstIndex { id in names.contains { id.starts(with: $0.utf8) } }
            return index.map { waypoints[$0] }
        }
        guard waypoints.count >= 2 else { return nil }
        let port = named(["port", "pin"]) ?? waypoints[0]
        let starboard = named(["starboard", "stbd", "committee", "boat", "rc"]) ?? waypoints[1]
        guard port != starboard else { return nil }
        self.init(port: port.position, starboard: starboard.position)
        guard isComplete else { return nil }
    }

    /// Both ends set and apart (a line of less than a metre is two pings of one place).
    public var isComplete: Bool {
        guard let port, let starboard else { return false }
        return Geodesic.wgs84.inverse(port, starboard).distance >= 1
    }

    /// Where the bow stands to the line, with the boat's speed and course over ground (m/s, degrees true), the true
    /// wind direction (degrees) and the seconds to the gun, each when known.
    ///
    /// The line is the geodesic between its ends; the distance is to the foot of the perpendicular when it falls
    /// between them, else to the nearer end. Facing the course (upwind), the port end is on the left: the pre-start
    /// side is to the right of the direction port→starboard.
    /// With a polar and the true wind speed (knots), also the time to the line at the polar's best: straight for it
    /// at the polar speed of that course, or, when the course to it is closer to the wind than the beat angle (or
    /// further off than the gybe angle), at the target's speed made good towards it.
    public func status(
        bow: GeoPoint, speed: Double?, course: Double?, windDirection: Double?, timeToStart: Double?,
        polar: Polar? = nil, windSpeed: Double? = nil
    ) -> StartLineStatus? {
        guard isComplete, let port, let starboard else { return nil }
        let geodesic = Geodesic.wgs84
        let line = geodesic.inverse(port, starboard)
        let position = LegGeometry.locate(bow, onLegFrom: port, azimuth: line.initialAzimuth)
        let side = position.crossTrack >= 0 ? 1.0 : -1.0
        let target: GeoPoint
        let distance: Double
        if position.alongTrack < 0 || position.alongTrack > line.distance {
            target = position.alongTrack < 0 ? port : starboard
            distance = side * geodesic.inverse(bow, target).distance
        } else {
            target = position.foot
            distance = position.crossTrack
        }
        var status = StartLineStatus(port: port, starboard: starboard, distance: distance, length: line.distance)
        if let speed, let course, abs(distance) > 0.01 {
            let bearing = geodesic.inverse(bow, target).initialAzimuth
            let closing = speed * cos(Angle.radians(course - bearing))
            if closing > 0.05 { status.timeToLine = abs(distance) / closing }
        }
        if let polar, let windDirection, let windSpeed, abs(distance) > 0.01 {
            let bearing = geodesic.inverse(bow, target).initialAzimuth
            let angle = abs(Angle.relative(bearing - windDirection))
            let beat = polar.beat(windSpeed: windSpeed)
            let run = polar.run(windSpeed: windSpeed)
            let knots: Double
            if angle < beat.angle {
                knots = beat.speed * cos(Angle.radians(beat.angle - angle))
            } else if angle > run.angle {
                knots = run.speed * cos(Angle.radians(angle - run.angle))
            } else {
                knots = polar.speed(angle: angle, windSpeed: windSpeed)
            }
            let closing = Units.metresPerSecond(knots: knots)
            if closing > 0.05 { status.timeToLineAtPolar = abs(distance) / closing }
        }
        if let timeToStart, timeToStart > 0, let timeToLine = status.timeToLine {
            status.timeToBurn = timeToStart - timeToLine
        }
        if let windDirection {
            // The line's direction halfway along it, against the square line (at right angles to the wind).
            let middle = geodesic.direct(from: port, azimuth: line.initialAzimuth, distance: line.distance / 2)
            // sin(bias) is the upwind component of the direction from the port end to the starboard end: 0 for a
            // square line, ±90° for one along the wind (a reaching start across a first leg off the wind).
            status.bias = Angle.degrees(asin(max(-1, min(1, cos(Angle.radians(middle.finalAzimuth - windDirection))))))
        }
        return status
    }
}

/// Where the bow stands to the start line.
public struct StartLineStatus: Hashable, Sendable {
    public var port: GeoPoint
    public var starboard: GeoPoint
    /// Metres from the bow to the line: positive on the pre-start side, negative over it (on the course side).
    public var distance: Double
    /// Metres between the ends.
    public var length: Double
    /// Seconds to the line at the current speed and course over ground; nil when not closing it.
    public var timeToLine: Double?
    /// Seconds to the line sailing to it at the polar's best (with a polar and a true wind).
    public var timeToLineAtPolar: Double?
    /// Seconds to spare: time to the gun less time to the line (negative: late). Nil after the gun.
    public var timeToBurn: Double?
    /// Degrees the line is turned from square to the wind: positive when the starboard end is further upwind (the
    /// favoured end), negative for the port end.
    public var bias: Double?

    /// Metres upwind the favoured end gains over the other: the line's length times the sine of the bias.
    public var advantage: Double? { bias.map { length * abs(sin(Angle.radians($0))) } }

    /// The favoured end, when the bias is known and not nil.
    public var favouredEnd: StartLine.End? {
        guard let bias, bias != 0 else { return nil }
        return bias > 0 ? .starboard : .port
    }

    public var isOver: Bool { distance < 0 }
}
