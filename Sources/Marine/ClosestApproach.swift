/// The closest point of approach of two vessels that each hold their course and speed over ground: how near (CPA)
/// and how soon (TCPA), as a radar's or an AIS display's target data gives it.
///
/// Relative motion in the plane tangent to the earth at the own vessel: the target's offset from the geodesic
/// between them, both velocities as east and north components. `ClosestApproachTests` checks it against both vessels
/// walked along their geodesics in 2 s steps, for ranges to 10 NM, speeds to 20 kn and half an hour ahead: the CPA
/// within 5 m plus 1 % of itself (the plane's error grows with the miles between them: under 5 m for a CPA the alarm
/// cares about, 45 m for one of 4 NM), the TCPA within 3 s.
public struct ClosestApproach: Hashable, Sendable {
    /// Metres apart at the closest point.
    public var distance: Double
    /// Seconds from now to the closest point; 0 when they are already drawing apart (closest now).
    public var time: Double
    /// Metres apart now.
    public var range: Double
    /// The target's bearing from the own vessel now, degrees true.
    public var bearing: Double
    /// Metres a second at which the range is closing now (negative: opening).
    public var closingSpeed: Double

    /// - Parameters: positions; courses in degrees true; speeds in m/s.
    public init(
        own: GeoPoint, ownCourse: Double, ownSpeed: Double, target: GeoPoint, targetCourse: Double,
        targetSpeed: Double, geodesic: Geodesic = .wgs84
    ) {
        let line = geodesic.inverse(own, target)
        let azimuth = Angle.radians(line.initialAzimuth)
        let x = line.distance * sin(azimuth)
        let y = line.distance * cos(azimuth)
        let ownCourse = Angle.radians(ownCourse)
        let targetCourse = Angle.radians(targetCourse)
        let vx = targetSpeed * sin(targetCourse) - ownSpeed * sin(ownCourse)
        let vy = targetSpeed * cos(targetCourse) - ownSpeed * cos(ownCourse)
        let speedSquared = vx * vx + vy * vy
        let t = speedSquared > 1e-12 ? max(0, -(x * vx + y * vy) / speedSquared) : 0
        let cx = x + vx * t
        let cy = y + vy * t
        distance = (cx * cx + cy * cy).squareRoot()
        time = t
        range = line.distance
        bearing = Angle.direction(line.initialAzimuth)
        closingSpeed = line.distance > 0 ? -(x * vx + y * vy) / line.distance : 0
    }
}
