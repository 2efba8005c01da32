import Testing

@testable import Marine

/// The current the router sails through (#51): an ocean model's grid read apart from the weather's (it never stands
/// in for the wind), the tidal streams near their stations, the ocean beyond them, nothing where neither says.
@Suite struct CurrentFieldTests {
    static let t0 = ForecastGridTests.t0
    static let t1 = ForecastGridTests.t1

    /// A 3 × 2 grid of the sea's current only from 50N 2W, a step of 1°: 0.5 m/s east everywhere at t0, 1.0 at t1;
    /// north 0.1 in the south row, 0.3 in the north.
    static func oceanGrid(runTime: Int64 = t0) throws -> ForecastGrid {
        var writer = ForecastGridWriter(
            columns: 3, rows: 2, south: 50, west: -2, rowStep: 1, columnStep: 1, runTime: runTime, times: [t0, t1],
            fields: [.currentEast, .currentNorth], label: "rtofs.grib2")
        writer.set(.currentEast, time: 0, values: Array(repeating: 0.5, count: 6))
        writer.set(.currentEast, time: 1, values: Array(repeating: 1.0, count: 6))
        for time in 0...1 { writer.set(.currentNorth, time: time, values: [0.1, 0.1, 0.1, 0.3, 0.3, 0.3]) }
        return try ForecastGrid(GridBytes(copying: writer.bytes()))
    }

    @Test("an ocean grid gives the current, never the weather; a later ocean run does not supersede the wind")
    func oceanApart() throws {
        let wind = try ForecastGridTests.grid(ForecastGridTests.smallGrid())
        let ocean = try Self.oceanGrid(runTime: Self.t0 + 3600)
        let forecast = Forecast(grids: [wind, ocean])
        let point = GeoPoint(latitude: 50.5, longitude: -1.5)
        let middle = Double(Self.t0 + 5400)
        #expect(
            forecast.chosen(at: point, time: middle) == 0 && forecast.chosen(at: point, time: middle, ocean: true) == 1)
        let sample = try #require(forecast.sample(at: point, time: middle))
        #expect(sample.windEast != nil && sample.runTime == Double(Self.t0))
        #expect(abs((sample.currentEast ?? 0) - 0.75) < 1e-9 && abs((sample.currentNorth ?? 0) - 0.2) < 1e-9)
        #expect(
            forecast.use(of: 1, at: point, time: middle) == .used
                && forecast.use(of: 0, at: point, time: middle) == .used)
        // Alone, the ocean grid still answers for the current (and the sample has nothing of the air).
        let alone = Forecast(grids: [ocean]).sample(at: point, time: middle)
        #expect(alone?.windEast == nil && alone?.currentEast != nil)
    }

    @Test("near a current station its stream; between two their inverse-square mean; beyond the radius the ocean")
    func field() throws {
        let a = Self.station("A", 50.0, -1.5, flood: 0)
        let b = Self.station("B", 50.0, -1.3, flood: 90)
        var field = CurrentField(stations: [a, b], radius: 5 * 1852, forecast: Forecast(grids: [try Self.oceanGrid()]))
        var curve = a.curve()
        let events = curve.events(from: Double(Self.t0), to: Double(Self.t0) + 50_000)
        let flood = try #require(events.first { $0.kind == .flood })
        let near = field.current(at: GeoPoint(latitude: 50.001, longitude: -1.5), time: flood.time)
        let beside = try #require(near)
        #expect(beside.source == .tidal(stations: 1) && abs(beside.east) < 1e-9)
        #expect(abs(beside.north - flood.value * 1852 / 3600) < 1e-9)
        // Halfway: each 7.16 km away, the same stream at right angles: the mean is north-east.
        let between = field.current(at: GeoPoint(latitude: 50.0, longitude: -1.4), time: flood.time)
        let half = try #require(between)
        #expect(half.source == .tidal(stations: 2) && abs(half.east - half.north) < 1e-9)
        // Thirty miles north-east of them, beyond the radius, on the ocean grid: its current.
        let out = field.current(at: GeoPoint(latitude: 50.8, longitude: -1.0), time: Double(Self.t0))
        let north = try #require(out)
        #expect(north.source == .ocean && abs(north.east - 0.5) < 1e-9 && abs(north.north - 0.26) < 1e-9)
        #expect(field.current(at: GeoPoint(latitude: 45, longitude: -1.0), time: Double(Self.t0)) == nil)
    }

    static func station(_ name: String, _ latitude: Double, _ longitude: Double, flood: Double) -> TideStation {
        TideStation(
            name: name, kind: .current, latitude: latitude, longitude: longitude,
            harmonics: TideHarmonics(constituents: [("M2", 2.0, 0)], datum: 0)!, floodDirection: flood,
            ebbDirection: (flood + 180).truncatingRemainder(dividingBy: 360))
    }
}
