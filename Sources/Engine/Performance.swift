import Marine

/// The boat against its polar at one tick: speeds in m/s, angles in degrees.
public struct Performance: Hashable, Sendable {
    /// A target angle (true wind angle, 0–180) and the speed and velocity made good to windward there.
    public struct Target: Hashable, Sendable {
        public var angle: Double
        public var speed: Double
        /// Negative downwind.
        public var windwardSpeed: Double
    }

    /// What the polar gives at the true wind angle and speed now.
    public var polarSpeed: Double
    /// Speed through the water over the polar's (1 = on the polar); nil without speed through water.
    public var polarRatio: Double?
    public var beat: Target
    public var run: Target
    /// The target of the point of sail: the beat forward of the beam, the run abaft it.
    public var target: Target {
        upwind ? beat : run
    }
    /// The true wind is forward of the beam.
    public var upwind: Bool

    /// The laylines to the active waypoint when it is upwind of the beat angle or downwind of the gybe angle, with the
    /// current from the difference of the ground track and the water track (log, heading, leeway).
    static func laylines(_ v: InstrumentValues) -> Laylines? {
        guard let performance = v.performance, let navigation = v.navigation, let wind = v.trueWindDirection,
            let trueWind = v.trueWind, let course = v.courseOverGround, let speed = v.speedOverGround
        else { return nil }
        let offWind = abs(Angle.relative(navigation.bearingToWaypoint - wind))
        let target: Target
        if offWind < performance.beat.angle {
            target = performance.beat
        } else if offWind > performance.run.angle {
            target = performance.run
        } else {
            return nil
        }
        var current: PlaneVector?
        if let heading = v.headingTrue, let water = v.speedThroughWater, !v.speedIsOverGround {
            current =
                PlaneVector(magnitude: speed, angle: course)
                - PlaneVector(magnitude: water, angle: heading + (v.leeway ?? 0))
        }
        return Laylines.to(
            bearing: navigation.bearingToWaypoint, range: navigation.distanceToWaypoint, windDirection: wind,
            targetAngle: target.angle, targetSpeed: target.speed, starboard: trueWind.angle > 0, course: course,
            speed: speed, current: current)
    }

    /// The performance at the true wind (relative to the bow, over the water) and speed through the water, or nil
    /// without a polar or a true wind.
    static func at(_ trueWind: RelativeWind?, speedThroughWater: Double?, polar: Polar?) -> Performance? {
        guard let polar, let trueWind else { return nil }
        let windKnots = Units.knots(metresPerSecond: trueWind.speed)
        let knots = polar.speed(angle: trueWind.angle, windSpeed: windKnots)
        func target(_ target: Polar.Target) -> Target {
            Target(
                angle: target.angle, speed: Units.metresPerSecond(knots: target.speed),
                windwardSpeed: Units.metresPerSecond(knots: target.windwardSpeed))
        }
        let polarSpeed = Units.metresPerSecond(knots: knots)
        return Performance(
            polarSpeed: polarSpeed,
            polarRatio: speedThroughWater.flatMap { polarSpeed > 0.05 ? $0 / polarSpeed : nil },
            beat: target(polar.beat(windSpeed: windKnots)), run: target(polar.run(windSpeed: windKnots)),
            upwind: abs(trueWind.angle) < 90)
    }
}
