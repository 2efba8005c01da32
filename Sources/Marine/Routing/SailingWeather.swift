/// The wind and the current the weather router sails through: asked for at a place and time, again and again.
public protocol SailingWeather {
    /// The true wind: m/s towards the east and the north (as a GRIB's u and v) and the gust (m/s) when known; nil
    /// where no forecast speaks for the place and time.
    mutating func wind(at point: GeoPoint, time: Double) -> (east: Double, north: Double, gust: Double?)?
    /// The current: m/s towards the east and the north; nil where none is known (sailed as slack water).
    mutating func current(at point: GeoPoint, time: Double) -> (east: Double, north: Double)?
}

/// The forecasts on board and the currents (tidal streams, ocean forecasts) as the router's weather.
public struct ForecastWeather: SailingWeather {
    public var forecast: Forecast
    public var currents: CurrentField?

    public init(forecast: Forecast, currents: CurrentField? = nil) {
        self.forecast = forecast
        self.currents = currents
    }

    public mutating func wind(at point: GeoPoint, time: Double) -> (east: Double, north: Double, gust: Double?)? {
        guard let index = forecast.chosen(at: point, time: time),
            let sample = forecast.grids[index].sample(at: point, time: time), let east = sample.windEast,
            let north = sample.windNorth, east.isFinite, north.isFinite
        else { return nil }
        return (east, north, sample.gust)
    }

    public mutating func current(at point: GeoPoint, time: Double) -> (east: Double, north: Double)? {
        if currents != nil, let found = currents?.current(at: point, time: time) { return (found.east, found.north) }
        return currents == nil ? forecast.current(at: point, time: time) : nil
    }
}
