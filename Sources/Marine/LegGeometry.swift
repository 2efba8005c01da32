/// Where a position lies relative to a leg of a route.
public struct LegPosition: Hashable, Sendable {
    /// Signed distance from the leg in metres: positive when the position is to the right (starboard side) of the
    /// leg's direction. The XTE steer letter is the opposite side: right of track, steer left.
    public var crossTrack: Double
    /// Metres from the origin along the leg to the foot of the perpendicular (negative before the origin).
    public var alongTrack: Double
    /// The foot of the perpendicular from the position to the leg.
    public var foot: GeoPoint
    /// The leg's direction at the foot, degrees true.
    public var legAzimuthAtFoot: Double
}

/// Cross-track and along-track distance on the ellipsoid.
///
/// The leg is the geodesic from origin to destination, extended beyond both ends. The foot of the perpendicular
/// is found by iteration: from a point on the leg, solve the geodesic to the position, move along the leg by the
/// spherical right-triangle estimate of the remaining along-track distance, and repeat until the step is below a
/// micrometre (two or three rounds for a boat near its leg, warm-started from the last foot).
///
/// OpenCPN computes XTE on a plane around the rhumb leg. For the legs a sailor sails (a few miles) the two differ
/// by centimetres; on an ocean leg the rhumb line and the geodesic part by miles, and Telltale's is the geodesic:
/// the shortest way, which is what a chartplotter's great-circle route draws.
public enum LegGeometry {
    /// Mean radius used only to size the iteration's steps; the answer does not depend on it.
    static let stepRadius = 6_371_008.8

    /// - Parameters:
    ///   - start: a point on the leg to start from (the origin, or the last foot for a warm start) and the leg's
    ///     azimuth there, with its along-track distance from the origin.
    public static func locate(
        _ position: GeoPoint, onLegFrom origin: GeoPoint, azimuth: Double,
        start: (point: GeoPoint, azimuth: Double, alongTrack: Double)? = nil,
        geodesic: Geodesic = .wgs84
    ) -> LegPosition {
        var base = start?.point ?? origin
        var baseAzimuth = start?.azimuth ?? azimuth
        var along = start?.alongTrack ?? 0
        var crossTrack = 0.0
        for _ in 0..<12 {
            let toPosition = geodesic.inverse(base, position)
            if toPosition.distance < 1e-9 {
                crossTrack = 0
                break
            }
            let angle = (toPosition.initialAzimuth - baseAzimuth) * .pi / 180
            let hypotenuse = toPosition.distance / stepRadius
            let step = stepRadius * atan2(sin(hypotenuse) * cos(angle), cos(hypotenuse))
            crossTrack = toPosition.distance * (sin(angle) < 0 ? -1 : 1)
            if abs(step) < 1e-6 {
                // At the foot the angle is a right angle and the distance is the cross-track error.
                crossTrack = toPosition.distance * sin(angle)
                break
            }
            let moved = geodesic.direct(from: base, azimuth: baseAzimuth, distance: step)
            base = moved.point
            baseAzimuth = moved.finalAzimuth
            along += step
        }
        return LegPosition(crossTrack: crossTrack, alongTrack: along, foot: base, legAzimuthAtFoot: baseAzimuth)
    }
}
