/// One waypoint ahead, with when the boat should reach it and what the forecast says there then.
public struct WaypointWeather: Hashable, Sendable {
    public var name: String
    public var position: GeoPoint
    /// UNIX seconds; nil when no speed is known to reach it by.
    public var arrival: Double?
    public var forecast: ForecastSample?

    public init(name: String, position: GeoPoint, arrival: Double?, forecast: ForecastSample?) {
        self.name = name
        self.position = position
        self.arrival = arrival
        self.forecast = forecast
    }
}

/// The forecast along the route: each waypoint ahead at the time the boat should reach it, leg by leg.
///
/// A leg's speed is the polar's for the forecast wind at its start, made good along the leg: a leg closer to the
/// wind than the beat target is sailed tack on tack (the target's speed to windward over the cosine of the leg's
/// angle to the wind), a leg deeper than the run target gybe on gybe; without a polar or a forecast wind there, the
/// boat's speed now. A leg with no speed to sail it ends the reckoning: the waypoints after it have no time.
public enum RouteWeather {
    public static func ahead(
        from position: GeoPoint, at time: Double, waypoints: ArraySlice<Waypoint>, forecast: Forecast,
        polar: Polar?, speed: Double?, geodesic: Geodesic = .wgs84
    ) -> [WaypointWeather] {
        var out: [WaypointWeather] = []
        var here = position
        var clock: Double? = time
        for waypoint in waypoints {
            if let now = clock {
                let leg = geodesic.inverse(here, waypoint.position)
                let wind = forecast.sample(at: here, time: now)
                let legSpeed = self.speed(
                    bearing: leg.initialAzimuth, wind: wind, polar: polar, fallback: speed)
                clock = legSpeed.map { now + leg.distance / $0 }
            }
            let arrival = clock
            out.append(
                WaypointWeather(
                    name: waypoint.id, position: waypoint.position, arrival: arrival,
                    forecast: arrival.flatMap { forecast.sample(at: waypoint.position, time: $0) }))
            here = waypoint.position
        }
        return out
    }

    /// Metres a second made good along a leg of `bearing` (degrees true).
    static func speed(bearing: Double, wind: ForecastSample?, polar: Polar?, fallback: Double?) -> Double? {
        let usable = fallback.flatMap { $0 > 0.25 ? $0 : nil }
        guard let polar, let from = wind?.windDirection, let windSpeed = wind?.windSpeed else { return usable }
        let angle = abs(Angle.relative(from - bearing))
        let beat = polar.beat(windSpeed: windSpeed)
        let run = polar.run(windSpeed: windSpeed)
        var made: Double
        if angle < beat.angle {
            made = beat.speed * cos(Angle.radians(beat.angle)) / cos(Angle.radians(angle))
        } else if angle > run.angle {
            made = run.speed * cos(Angle.radians(180 - run.angle)) / cos(Angle.radians(180 - angle))
        } else {
            made = polar.speed(angle: angle, windSpeed: windSpeed)
        }
        return made > 0.25 ? made : usable
    }

    /// The meteogram at `point`: the forecast now, then at each of the forecasts' own times for `hours`.
    public static func meteogram(at point: GeoPoint, from time: Double, hours: Double, forecast: Forecast)
        -> [ForecastSample]
    {
        var samples: [ForecastSample] = []
        if let now = forecast.sample(at: point, time: time) { samples.append(now) }
        for t in forecast.times(at: point, from: time, hours: hours) where t > time {
            if let sample = forecast.sample(at: point, time: t) { samples.append(sample) }
        }
        return samples
    }
}
