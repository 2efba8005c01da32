/// The current at any place and time, as the weather router asks for it: the tidal stream where current stations
/// are near (their predictions weighed by the inverse square of their distance, the nearest alone within 200 m, none
/// farther than `radius`), else the ocean current of the forecasts on board (an ocean model's GRIB), else nothing.
///
/// The stations' curves keep their year's coefficients as they are asked (`mutating`): one field for one search.
public struct CurrentField: Sendable {
    private var curves: [TideCurve]
    private let places: [GeoPoint]
    public let radius: Double
    public let forecast: Forecast

    /// What says the current at a place: a tidal prediction (from how many stations), the ocean forecast, or nothing.
    public enum Source: Hashable, Sendable {
        case tidal(stations: Int)
        case ocean
    }

    public init(stations: [TideStation], radius: Double, forecast: Forecast = Forecast()) {
        let currents = TideStation.surfaceOnly(
            stations.filter { $0.kind == .current && $0.floodDirection != nil && $0.ebbDirection != nil })
        curves = currents.map { $0.curve() }
        places = currents.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        self.radius = radius
        self.forecast = forecast
    }

    public var isEmpty: Bool { curves.isEmpty && forecast.grids.allSatisfy { !$0.hasOcean } }

    /// The current at `point` at `time` (UNIX seconds): m/s towards the east and the north, and what says so; nil
    /// where nothing does.
    public mutating func current(at point: GeoPoint, time: Double) -> (east: Double, north: Double, source: Source)? {
        var east = 0.0
        var north = 0.0
        var weights = 0.0
        var count = 0
        let shrink = cos(point.latitude * Double.pi / 180)
        for index in curves.indices {
            // A flat distance first: most stations are far, and a geodesic each would cost the router dearly.
            let dy = (places[index].latitude - point.latitude) * 111_320
            var dx = places[index].longitude - point.longitude
            if dx > 180 { dx -= 360 }
            if dx < -180 { dx += 360 }
            dx *= 111_320 * shrink
            let rough = (dx * dx + dy * dy).squareRoot()
            guard rough <= radius * 1.01 + 50 else { continue }
            let speed = curves[index].value(at: time)
            guard let direction = curves[index].station.direction(ofSpeed: speed) else { continue }
            let metres = abs(speed) * 1852 / 3600
            let radians = direction * Double.pi / 180
            if rough < 200 { return (metres * sin(radians), metres * cos(radians), .tidal(stations: 1)) }
            let weight = 1 / (rough * rough)
            east += weight * metres * sin(radians)
            north += weight * metres * cos(radians)
            weights += weight
            count += 1
        }
        if weights > 0 { return (east / weights, north / weights, .tidal(stations: count)) }
        guard let ocean = forecast.current(at: point, time: time) else { return nil }
        return (ocean.east, ocean.north, .ocean)
    }
}
