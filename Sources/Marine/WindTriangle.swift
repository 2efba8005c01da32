/// Wind relative to the boat: where it comes from (signed angle off the bow) and how fast.
public struct RelativeWind: Hashable, Sendable {
    /// Degrees, (-180, 180], positive = wind on the starboard side.
    public var angle: Double
    /// Metres per second.
    public var speed: Double

    public init(angle: Double, speed: Double) {
        self.angle = angle
        self.speed = speed
    }

    /// The wind as a boat-frame vector pointing where it comes from (x forward, y starboard).
    public var vector: PlaneVector { PlaneVector(magnitude: speed, angle: angle) }

    public init(_ vector: PlaneVector) {
        self.init(angle: vector.magnitude == 0 ? 0 : Angle.relative(vector.angle), speed: vector.magnitude)
    }
}

/// The wind triangle: apparent wind is true wind plus the wind of the boat's own motion.
///
/// With the boat moving through the water at speed `STW` along a course `LEE` degrees off the bow (leeway),
/// the boat's own wind comes from that direction at that speed, so in the boat frame
/// `true = apparent - boat`, that is
///
///     u = AWS·cos(AWA) - STW·cos(LEE),   v = AWS·sin(AWA) - STW·sin(LEE)
///     TWS = √(u² + v²),   TWA = atan2(v, u),   TWD = HDT + TWA
///
/// which is the formula of docs/sentences.md ("True wind, and what it is not") when LEE = 0. Ground wind uses the velocity over ground instead: SOG at
/// `COG - HDT` off the bow. The two differ by the current; Telltale's "true wind" is always the water one.
public enum WindTriangle {
    /// The boat's own motion as a boat-frame vector (x forward, y starboard), in m/s.
    public static func boatMotion(speed: Double, angleOffBow: Double = 0) -> PlaneVector {
        PlaneVector(magnitude: speed, angle: angleOffBow)
    }

    /// True wind over water from apparent wind, speed through water and leeway (degrees, positive starboard).
    public static func trueWind(apparent: RelativeWind, speedThroughWater: Double, leeway: Double = 0) -> RelativeWind {
        RelativeWind(apparent.vector - boatMotion(speed: speedThroughWater, angleOffBow: leeway))
    }

    /// Apparent wind from true wind over water: the same vector sum the other way.
    public static func apparentWind(true wind: RelativeWind, speedThroughWater: Double, leeway: Double = 0)
        -> RelativeWind
    {
        RelativeWind(wind.vector + boatMotion(speed: speedThroughWater, angleOffBow: leeway))
    }

    /// Ground wind: apparent wind less the boat's velocity over ground (`COG - HDT` off the bow).
    public static func groundWind(
        apparent: RelativeWind, speedOverGround: Double, courseOverGround: Double, heading: Double
    ) -> RelativeWind {
        let offBow = Angle.difference(from: heading, to: courseOverGround)
        return RelativeWind(apparent.vector - boatMotion(speed: speedOverGround, angleOffBow: offBow))
    }

    /// The direction the wind comes from, relative to north, from a relative angle and the true heading.
    public static func direction(of wind: RelativeWind, heading: Double) -> Double {
        Angle.direction(heading + wind.angle)
    }

    /// Velocity made good to windward (VPW): the boat's velocity through water projected on the true wind.
    /// Negative downwind. `STW·cos(TWA - LEE)`, which is `STW·cos(TWA)` without leeway.
    public static func velocityMadeGood(trueWind: RelativeWind, speedThroughWater: Double, leeway: Double = 0)
        -> Double
    {
        speedThroughWater * cos(Angle.radians(trueWind.angle - leeway))
    }
}
