import Marine

/// What the weather page shows beside the values of each tick, made once a minute (and when the forecasts change):
/// the meteogram at the boat, the forecast at each waypoint ahead at its arrival, the barometer's day, and what each
/// forecast on board is to the boat.
public struct WeatherReport: Sendable {
    /// Each forecast grid: its label, its run and last time (UNIX seconds), and whether it speaks for the boat.
    public struct Grid: Sendable {
        public var label: String
        public var run: Double
        public var end: Double
        public var use: Forecast.Use
        /// The area it covers, degrees (a global grid: −180 to 180): where a forecast can be asked for.
        public var south = 0.0
        public var west = 0.0
        public var north = 0.0
        public var east = 0.0
        public var isGlobal = false
    }

    /// UNIX seconds when it was made.
    public var time: Double
    /// The forecast at the boat now, then at each forecast time for the next 48 hours.
    public var meteogram: [ForecastSample]
    public var route: [WaypointWeather]
    /// The barometer's last 24 hours, a point every 10 minutes (minutes before ``time``, pascals).
    public var barograph: [(minutesAgo: Int, pascals: Double)]
    public var grids: [Grid]
}

extension Engine {
    /// Makes the weather report (``WeatherReport``) at `now`: once a minute, or at once when the forecasts changed.
    mutating func reportWeather(at now: Double) {
        guard now - weather.reportedAt >= 60 || now < weather.reportedAt else { return }
        weather.reportedAt = now
        let utc = unixTime(at: now) ?? now
        let point = values.position?.point
        var meteogram: [ForecastSample] = []
        var ahead: [WaypointWeather] = []
        if let point, !forecast.isEmpty {
            meteogram = RouteWeather.meteogram(at: point, from: utc, hours: 48, forecast: forecast)
            if let route = follower.route, follower.phase != .stopped, follower.legIndex + 1 < route.waypoints.count {
                ahead = RouteWeather.ahead(
                    from: point, at: utc, waypoints: route.waypoints[(follower.legIndex + 1)...], forecast: forecast,
                    polar: configuration.polar, speed: values.speedOverGround)
            }
        }
        let grids = forecast.grids.indices.map { index in
            let grid = forecast.grids[index]
            var report = WeatherReport.Grid(
                label: grid.label, run: grid.runTime, end: grid.times[grid.times.count - 1],
                use: forecast.use(of: index, at: point, time: utc))
            report.south = grid.south
            report.north = grid.south + Double(grid.rows - 1) * grid.rowStep
            report.west = grid.west > 180 ? grid.west - 360 : grid.west
            report.east = report.west + Double(grid.columns - 1) * grid.columnStep
            report.isGlobal = grid.isGlobal
            return report
        }
        weather.report = WeatherReport(
            time: utc, meteogram: meteogram, route: ahead, barograph: weather.barograph.history(at: now), grids: grids)
        weather.reportRevision &+= 1
    }

    /// Counts every weather report made (``reportWeather(at:)``).
    public var weatherRevision: Int { weather.reportRevision }
}
