import Marine
import NMEA

/// The weather on board: the barometer's record and tendency, the gusts of the measured wind, and the forecasts
/// (GRIB files the shell imported and mapped) read at the boat's position once a second.
struct WeatherState: Sendable {
    var barograph = Barograph()
    var gusts = GustMeter()
    /// When the barometer reading last taken into the barograph arrived.
    var lastPressureTime = -Double.infinity
    /// Once a second: the forecast read at the boat, the gust and the tendency judged.
    var lastJudged = -Double.infinity
    var sample: ForecastSample?
    var gust: Double?
    var tendency: Barograph.Tendency?
    /// The weather page's report, when it was made, and how many have been.
    var report: WeatherReport?
    var reportedAt = -Double.infinity
    var reportRevision = 0
}

extension Engine {
    /// The forecasts on board from now on (the shell maps each imported grid file and hands them all over whenever
    /// one comes or goes). The forecast at the boat is read again at the next tick.
    public mutating func setForecast(_ forecast: Forecast) {
        self.forecast = forecast
        weather.lastJudged = -.infinity
        weather.reportedAt = -.infinity
    }

    /// The forecast at the boat, read once a second (the boat's fix and the UTC clock at `now`); its wind when it may
    /// stand in for an anemometer.
    mutating func refreshForecast(at now: Double) -> (direction: Double, speed: Double)? {
        if now - weather.lastJudged >= 1 || now < weather.lastJudged {
            weather.sample = nil
            if !forecast.isEmpty, let fix = inputs.position.select(at: now)?.value, let utc = unixTime(at: now) {
                weather.sample = forecast.sample(at: fix.point, time: utc)
            }
        }
        guard configuration.weather.windFallback, let sample = weather.sample, let speed = sample.windSpeed,
            let direction = sample.windDirection
        else { return nil }
        return (direction, speed)
    }

    /// The barometer into its record, the measured wind into the gusts; once a second the tendency and the gust.
    mutating func updateWeather(at now: Double) {
        if let reading = inputs.pressure.select(at: now) {
            values.pressure = reading.value
            if reading.time > weather.lastPressureTime {
                weather.lastPressureTime = reading.time
                weather.barograph.add(reading.value, at: reading.time)
            }
        }
        if let speed = derivation.rawTrueWindSpeed { weather.gusts.add(speed, at: now) }
        if now - weather.lastJudged >= 1 || now < weather.lastJudged {
            weather.lastJudged = now
            weather.gust = weather.gusts.gust(at: now)
            weather.tendency = weather.barograph.tendency(at: now)
        }
        values.forecast = weather.sample
        values.gust = derivation.rawTrueWindSpeed == nil ? nil : weather.gust
        values.pressureTendency = values.pressure == nil ? nil : weather.tendency
    }

    /// The barometer's record: a point every `step` minutes for the last `hours`, oldest first (minutes before
    /// `now`, pascals): the panel's barograph.
    public func barograph(at now: Double, hours: Int = 24, step: Int = 10) -> [(minutesAgo: Int, pascals: Double)] {
        weather.barograph.history(at: now, hours: hours, step: step)
    }
}
