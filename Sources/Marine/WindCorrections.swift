/// Corrections of the masthead unit's apparent wind before the triangle. Each one is switchable in the engine.
public enum WindCorrections {
    /// A sensor mounted off the centreline: the measured angle plus the offset (degrees, positive starboard).
    public static func sensorOffset(_ wind: RelativeWind, offset: Double) -> RelativeWind {
        RelativeWind(angle: Angle.relative(wind.angle + offset), speed: wind.speed)
    }

    /// Heel correction of a masthead unit tilted by heel φ: the unit measures only the wind in its own tilted
    /// plane, so the athwartships component is short by cos φ.
    ///
    ///     AWAc = atan2(sin AWAm, cos AWAm · cos φ)
    ///     AWSc = AWSm · √(cos² AWAm + sin² AWAm / cos² φ)
    ///
    /// φ 20°, AWA 30°, AWS 15 kn gives 31.57° and 15.25 kn. (Dividing AWS by cos φ, as one popular plugin does, is
    /// right only at 90°.) Heel is clamped to ±60° so a capsize reading cannot blow the speed up.
    public static func heel(_ wind: RelativeWind, heel: Double) -> RelativeWind {
        let phi = Angle.radians(min(max(heel, -60), 60))
        let awa = Angle.radians(wind.angle)
        let cosPhi = cos(phi)
        let correctedAngle = atan2(sin(awa), cos(awa) * cosPhi)
        let correctedSpeed = wind.speed * (cos(awa) * cos(awa) + sin(awa) * sin(awa) / (cosPhi * cosPhi)).squareRoot()
        return RelativeWind(angle: Angle.degrees(correctedAngle), speed: correctedSpeed)
    }

    /// Mast motion: a masthead unit at height `h` above the centre of rotation moves with the boat's roll and
    /// pitch. With the body frame FRD and the masthead at (0, 0, -h), its velocity is ω × r = (-h·q, h·p, 0)
    /// for roll rate p and pitch rate q (rad/s). Like the boat's own motion in the triangle, the unit feels its
    /// velocity as wind coming from the direction it moves in, so the correction subtracts the velocity:
    /// forward component + h·q, athwartships component - h·p.
    ///
    /// - Parameters:
    ///   - rollRate: degrees per second, positive rolling to starboard.
    ///   - pitchRate: degrees per second, positive bow rising.
    ///   - mastHeight: metres from the centre of rotation to the unit.
    public static func mastMotion(_ wind: RelativeWind, rollRate: Double, pitchRate: Double, mastHeight: Double)
        -> RelativeWind
    {
        let p = Angle.radians(rollRate)
        let q = Angle.radians(pitchRate)
        let masthead = PlaneVector(x: -mastHeight * q, y: mastHeight * p)
        return RelativeWind(wind.vector - masthead)
    }
}

/// Leeway estimated from heel and speed: `LEE = K · heel / STW²` (degrees, knots).
public struct LeewayModel: Hashable, Sendable {
    /// The boat's coefficient; typically 9–16.
    public var coefficient: Double
    /// The largest leeway reported, degrees.
    public var limit: Double
    /// Below this speed through water (knots) leeway is taken as zero: the formula grows without bound.
    public var minimumSpeed: Double

    public init(coefficient: Double = 12, limit: Double = 20, minimumSpeed: Double = 1) {
        self.coefficient = coefficient
        self.limit = limit
        self.minimumSpeed = minimumSpeed
    }

    /// Leeway in degrees, positive = drifting to starboard (a boat heeled to starboard drifts to starboard).
    /// - Parameters:
    ///   - heel: degrees, positive starboard down (a damped mean heel, not the instantaneous roll).
    ///   - speedThroughWater: metres per second.
    public func leeway(heel: Double, speedThroughWater: Double) -> Double {
        let knots = Units.knots(metresPerSecond: speedThroughWater)
        guard knots >= minimumSpeed, heel.isFinite else { return 0 }
        let estimate = coefficient * heel / (knots * knots)
        return min(max(estimate, -limit), limit)
    }
}
