/// The weather router: the fastest way from a start to a destination departing at a time, through the forecast's
/// wind and the currents, around the land, within the crew's limits.
///
/// Isochrones (Hagiwara's method, as weather_routing_pi and qtVlm use it): from every point reached at one time, the
/// boat sails each heading for one step at the polar's speed for the wind there and then (less a tack's or a gybe's
/// time where the wind changes side), the current added; of all the points reached, the farthest from the start in
/// each narrow sector of bearing is kept: the next isochrone. A point whose leg touches land (grown by its margin)
/// or breaks a limit is not reached. The search ends at the first step from which the destination is reached; the
/// route back through the points is then cut into straight legs (a waypoint at each tack, gybe or turn) and sailed
/// again leg by leg, so that the time it says is the time of the legs it gives.
public struct IsochroneRouter<Weather: SailingWeather> {
    public var polar: Polar
    public var settings: RouteSettings
    public var land: LandMask
    public var weather: Weather

    /// One point reached: where and when, the point it came from, how it sailed there.
    struct Node {
        var point: GeoPoint
        var time: Double
        var parent: Int
        var heading: Double
        var windAngle: Double
        var motoring: Bool
    }

    var nodes: [Node] = []

    public init(polar: Polar, settings: RouteSettings, land: LandMask, weather: Weather) {
        self.polar = polar
        self.settings = settings
        self.land = land
        self.weather = weather
    }

    static var earthRadius: Double { 6_371_008.8 }

    /// The point `metres` from `point` towards `bearing` (degrees), on the sphere.
    static func moved(_ point: GeoPoint, bearing: Double, metres: Double) -> GeoPoint {
        let radians = Angle.radians(bearing)
        let latitude = point.latitude + Angle.degrees(metres * cos(radians) / earthRadius)
        let shrink = max(cos(Angle.radians((point.latitude + latitude) / 2)), 1e-6)
        var longitude = point.longitude + Angle.degrees(metres * sin(radians) / (earthRadius * shrink))
        if longitude > 180 { longitude -= 360 }
        if longitude < -180 { longitude += 360 }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// Distance (metres) and initial bearing (degrees) from `a` to `b` on the sphere.
    static func leg(_ a: GeoPoint, _ b: GeoPoint) -> (distance: Double, bearing: Double) {
        let phi1 = Angle.radians(a.latitude)
        let phi2 = Angle.radians(b.latitude)
        let dLambda = Angle.radians(Angle.relative(b.longitude - a.longitude))
        let h =
            sin((phi2 - phi1) / 2) * sin((phi2 - phi1) / 2)
            + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        let distance = 2 * earthRadius * asin(min(1, h.squareRoot()))
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        return (distance, Angle.direction(Angle.degrees(atan2(y, x))))
    }

    /// The boat through the water on `heading` in the wind (m/s towards east and north): its speed (knots), the true
    /// wind angle, and whether under engine; nil where it may not sail that way (or makes no way).
    func sailing(heading: Double, wind: (east: Double, north: Double)) -> (speed: Double, angle: Double, motor: Bool)? {
        let windSpeed = (wind.east * wind.east + wind.north * wind.north).squareRoot()
        let from = Angle.direction(Angle.degrees(atan2(-wind.east, -wind.north)))
        return sailing(angle: Angle.relative(from - heading), windSpeed: windSpeed)
    }

    /// The boat at a true wind angle (signed) in a true wind of `windSpeed` m/s.
    func sailing(angle: Double, windSpeed: Double) -> (speed: Double, angle: Double, motor: Bool)? {
        if let limit = settings.maximumWind, windSpeed > limit { return nil }
        if let limit = settings.noRunAbove, windSpeed > limit, abs(angle) > settings.runAngle { return nil }
        var speed = polar.speed(angle: angle, windSpeed: Units.knots(metresPerSecond: windSpeed)) * settings.performance
        var motor = false
        if let below = settings.motorBelow, speed < below {
            speed = settings.motorSpeed
            motor = true
        }
        return speed > 0.05 ? (speed, angle, motor) : nil
    }

    /// Seconds a change of the wind's side costs between two legs: a tack when both are above a beam reach, else a
    /// gybe; nothing when the side stays or either is under engine.
    func penalty(from previous: Node, angle: Double, motor: Bool) -> Double {
        guard previous.parent >= 0, !motor, !previous.motoring, (previous.windAngle > 0) != (angle > 0) else {
            return 0
        }
        return abs(previous.windAngle) < 90 && abs(angle) < 90 ? settings.tackPenalty : settings.gybePenalty
    }

    /// The ground velocity (m/s east, north) of a boat making `speed` knots on `heading` in the current at a place.
    mutating func ground(speed: Double, heading: Double, at point: GeoPoint, time: Double) -> (
        east: Double, north: Double
    ) {
        let metres = Units.metresPerSecond(knots: speed)
        let radians = Angle.radians(heading)
        var east = metres * sin(radians)
        var north = metres * cos(radians)
        if let current = weather.current(at: point, time: time) {
            east += current.east
            north += current.north
        }
        return (east, north)
    }
}
