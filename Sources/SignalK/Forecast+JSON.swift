import Marine

/// The forecasts as the command line, the panel and the weather page say them: one JSON form of a sample, one set of
/// words for what a forecast is to the boat.
extension ForecastSample {
    /// An object: its time and run (UNIX seconds, and the time as text), wind speed (m/s), where it comes from
    /// (degrees true) and its east and north components, gust, pressure (Pa), rain (mm/h), cloud (%).
    public func write(_ key: String?, to json: inout JSONWriter) {
        json.beginObject(key)
        json.value("time", time)
        json.value("date", SignalKTime.text(unixTime: time))
        json.value("run", runTime)
        json.value("windSpeed", windSpeed)
        json.value("windDirection", windDirection)
        json.value("windEast", windEast)
        json.value("windNorth", windNorth)
        json.value("gust", gust)
        json.value("pressure", pressure)
        json.value("precipitation", precipitation)
        json.value("cloud", cloud)
        // An ocean model's current, when one is on board for the place.
        if let currentEast, let currentNorth {
            json.value("currentEast", currentEast)
            json.value("currentNorth", currentNorth)
        }
        json.endObject()
    }
}

extension Forecast.Use {
    /// Why a forecast is or is not the one used, in a sailor's words.
    public var words: String {
        switch self {
        case .used: "in use"
        case .superseded: "not used: a later or finer forecast covers the boat"
        case .outOfDate(let ended): "out of date: it ended \(SignalKTime.text(unixTime: ended))"
        case .notYet(let starts): "not yet valid: it starts \(SignalKTime.text(unixTime: starts))"
        case .elsewhere: "not used: it does not cover the boat's position"
        case .noPosition: "waiting for a position"
        }
    }
}
