/// The laylines to a mark: the ground tracks on which the boat, sailing at its target angle on either tack (or gybe),
/// fetches the mark, current included.
///
/// Worked on a plane tangent at the mark (metres east and north of it): marks are a few miles away at most when a
/// layline matters, and the plane's error there is centimetres.
public struct Laylines: Hashable, Sendable {
    /// How far and how long to the layline the boat meets on its current course (the other tack's), and to the one
    /// parallel to it (its own tack's, reached after tacking or gybing now). Nil when not ahead.
    public var distance: Double?
    public var time: Double?
    public var oppositeDistance: Double
    public var oppositeTime: Double?
    /// The mark is upwind (beating to it), else downwind (running to it).
    public var upwind: Bool

    /// - Parameters:
    ///   - bearing, range: from the boat to the mark (degrees true, metres).
    ///   - windDirection: where the true wind comes from, degrees true.
    ///   - targetAngle, targetSpeed: the beat (or gybe) angle and the speed through the water there, m/s.
    ///   - starboard: the boat is on starboard tack (the wind over its starboard side) now.
    ///   - course, speed: the boat's course and speed over ground now.
    ///   - current: the water's velocity over ground (m/s, x north, y east), or nil.
    /// - Returns: nil when the mark is not upwind of the beat angle (or downwind of the gybe angle): it is fetched
    ///   straight, no layline applies.
    public static func to(
        bearing: Double, range: Double, windDirection: Double, targetAngle: Double, targetSpeed: Double,
        starboard: Bool, course: Double, speed: Double, current: PlaneVector?
    ) -> Laylines? {
        let offWind = abs(Angle.relative(bearing - windDirection))
        let upwind = targetAngle < 90
        guard upwind ? offWind < targetAngle : offWind > targetAngle else { return nil }
        // The boat relative to the mark, x north and y east as PlaneVector has it.
        let boat = PlaneVector(magnitude: range, angle: bearing + 180)
        func track(starboardTack: Bool) -> PlaneVector {
            // On starboard tack the wind is on the starboard side: heading = wind direction less the angle.
            let heading = windDirection + (starboardTack ? -targetAngle : targetAngle)
            return PlaneVector(magnitude: targetSpeed, angle: heading) + (current ?? PlaneVector(x: 0, y: 0))
        }
        let ownTrack = track(starboardTack: starboard)
        let otherTrack = track(starboardTack: !starboard)
        let motion = PlaneVector(magnitude: speed, angle: course)
        var result = Laylines(distance: nil, time: nil, oppositeDistance: 0, oppositeTime: nil, upwind: upwind)
        // Ahead along the course to the other tack's layline (the line through the mark along the other track).
        if let ahead = Self.along(from: boat, direction: motion, toLineAlong: otherTrack) {
            result.distance = ahead * motion.magnitude
            result.time = ahead
        }
        // To the own tack's layline: its distance across, and the time on the other tack to reach it.
        result.oppositeDistance = abs(cross(unit(ownTrack), boat))
        result.oppositeTime = Self.along(from: boat, direction: otherTrack, toLineAlong: ownTrack)
        return result
    }

    /// The time t > 0 at which `point + t · direction` meets the line through the origin along `line`.
    static func along(from point: PlaneVector, direction: PlaneVector, toLineAlong line: PlaneVector) -> Double? {
        let denominator = cross(direction, line)
        guard abs(denominator) > 1e-9 else { return nil }
        let t = cross(line, point) / denominator
        return t > 0 ? t : nil
    }

    static func cross(_ a: PlaneVector, _ b: PlaneVector) -> Double { a.x * b.y - a.y * b.x }

    static func unit(_ v: PlaneVector) -> PlaneVector {
        let length = v.magnitude
        return length > 0 ? PlaneVector(x: v.x / length, y: v.y / length) : v
    }
}
