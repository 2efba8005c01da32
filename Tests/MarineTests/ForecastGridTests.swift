import Testing

@testable import Marine

/// The forecast grid file: written, read back, interpolated as worked by hand; a broken file refused with its reason,
/// never read past its end; of several forecasts, the right one chosen and the others said why not.
@Suite struct ForecastGridTests {
    /// 2020-09-13 00:00 UTC and three hours later.
    static let t0: Int64 = 1_600_000_000 - 1_600_000_000 % 86_400
    static let t1 = t0 + 10_800

    /// A 3 × 2 grid from 50N 2W in steps of 1°: wind, pressure and precipitation at two times, values chosen so that
    /// every interpolation below is worked by hand.
    static func smallGrid(runTime: Int64 = t0, west: Double = -2, label: String = "test.grb") -> [UInt8] {
        var writer = ForecastGridWriter(
            columns: 3, rows: 2, south: 50, west: west, rowStep: 1, columnStep: 1, runTime: runTime,
            times: [t0, t1], fields: [.windEast, .windNorth, .pressure, .precipitation], label: label)
        // Rows from the south, west to east.
        writer.set(.windEast, time: 0, values: [0, 2, 4, 6, 8, 10])
        writer.set(.windNorth, time: 0, values: [0, 0, 0, 0, 0, 0])
        writer.set(.windEast, time: 1, values: [0, 0, 0, 0, 0, 0])
        writer.set(.windNorth, time: 1, values: [-10, -10, -10, -10, -10, -10])
        writer.set(.pressure, time: 0, values: [101_000, 101_100, 101_200, 101_300, 101_400, 101_500])
        writer.set(.pressure, time: 1, values: [100_700, 100_800, 100_900, 101_000, 101_100, 101_200])
        writer.set(.precipitation, time: 0, values: Array(repeating: .nan, count: 6))
        writer.set(.precipitation, time: 1, values: [1, 1, 1, 3, 3, 3])
        return writer.bytes()
    }

    static func grid(_ bytes: [UInt8]) throws -> ForecastGrid { try ForecastGrid(GridBytes(copying: bytes)) }

    @Test("written and read back: the grid, times, fields, label and every value")
    func roundTrip() throws {
        let grid = try Self.grid(Self.smallGrid())
        #expect(grid.columns == 3 && grid.rows == 2)
        #expect(grid.south == 50 && grid.west == -2 && grid.north == 51 && grid.east == 0)
        #expect(grid.times == [Double(Self.t0), Double(Self.t1)])
        #expect(grid.fields == [.windEast, .windNorth, .pressure, .precipitation])
        #expect(grid.label == "test.grb")
        #expect(grid.value(.windEast, time: 0, row: 1, column: 2) == 10)
        #expect(grid.value(.pressure, time: 1, row: 0, column: 1) == 100_800)
        #expect(grid.value(.precipitation, time: 0, row: 0, column: 0) == nil)
        #expect(grid.value(.gust, time: 0, row: 0, column: 0) == nil, "not in the file")
        #expect(!grid.isGlobal)
    }

    @Test("bilinear in space, linear in time, the wind as a vector, the rain of the interval")
    func interpolation() throws {
        let grid = try Self.grid(Self.smallGrid())
        // At the first time, a quarter of the way north and three quarters east of the south-west cell:
        // U = south edge 1.5, north edge 7.5 → 1.5 + 0.25 × 6 = 3.0; pressure 101,075 + 0.25 × 300 = 101,150.
        let point = GeoPoint(latitude: 50.25, longitude: -1.25)
        let first = try #require(grid.sample(at: point, time: Double(Self.t0)))
        #expect(abs(first.windEast! - 3.0) < 1e-9)
        #expect(abs(first.pressure! - 101_150) < 1e-6)
        #expect(first.precipitation == nil, "no rain before the first interval")
        #expect(abs(first.windDirection! - 270) < 1e-9, "blowing east: from the west")
        // An hour later: a third of the way from 3 m/s east to 10 m/s south; pressure down 300 Pa in 3 h.
        let later = try #require(grid.sample(at: point, time: Double(Self.t0) + 3600))
        #expect(abs(later.windEast! - 2.0) < 1e-9)
        #expect(abs(later.windNorth! - -10.0 / 3) < 1e-9)
        #expect(abs(later.pressure! - 101_050) < 1e-6)
        #expect(abs(later.windSpeed! - (4 + 100.0 / 9).squareRoot()) < 1e-9, "the vector's length, not the mean")
        // Rain: rows 1 mm/h south, 3 north, a quarter of the way up: 1.5 mm/h, all of the interval.
        #expect(abs(later.precipitation! - 1.5) < 1e-9)
        #expect(later.lead == 3600)
    }

    @Test("outside the grid or its times: nothing")
    func outside() throws {
        let grid = try Self.grid(Self.smallGrid())
        #expect(grid.sample(at: GeoPoint(latitude: 49.9, longitude: -1), time: Double(Self.t0)) == nil)
        #expect(grid.sample(at: GeoPoint(latitude: 50.5, longitude: 0.1), time: Double(Self.t0)) == nil)
        #expect(grid.sample(at: GeoPoint(latitude: 50.5, longitude: -1), time: Double(Self.t1) + 1) == nil)
        #expect(grid.sample(at: GeoPoint(latitude: 50.5, longitude: -1), time: Double(Self.t0) - 1) == nil)
        // The edges themselves are inside.
        #expect(grid.sample(at: GeoPoint(latitude: 51, longitude: 0), time: Double(Self.t1)) != nil)
    }

    @Test("a grid given in 0–360° longitudes serves a boat west of Greenwich; a global grid wraps")
    func longitudes() throws {
        let east = try Self.grid(Self.smallGrid(west: 358))
        let sample = try #require(east.sample(at: GeoPoint(latitude: 50, longitude: -1.5), time: Double(Self.t0)))
        #expect(abs(sample.windEast! - 1) < 1e-9)
        // A global grid: 4 columns of 90°, the last joining the first.
        var writer = ForecastGridWriter(
            columns: 4, rows: 2, south: 0, west: 0, rowStep: 10, columnStep: 90, runTime: Self.t0, times: [Self.t0],
            fields: [.windEast, .windNorth], label: "global")
        writer.set(.windEast, time: 0, values: [0, 1, 2, 4, 0, 1, 2, 4])
        writer.set(.windNorth, time: 0, values: Array(repeating: 0, count: 8))
        let global = try Self.grid(writer.bytes())
        #expect(global.isGlobal)
        // 315°E (= 45°W) is half way from column 3 (4 m/s) back round to column 0 (0 m/s).
        let wrapped = try #require(global.sample(at: GeoPoint(latitude: 5, longitude: -45), time: Double(Self.t0)))
        #expect(abs(wrapped.windEast! - 2) < 1e-9)
    }

    @Test("impossible values are refused as they are written and stay missing")
    func impossibleValues() throws {
        var writer = ForecastGridWriter(
            columns: 2, rows: 2, south: 0, west: 0, rowStep: 1, columnStep: 1, runTime: Self.t0, times: [Self.t0],
            fields: [.windEast, .pressure], label: "bad")
        writer.set(.windEast, time: 0, values: [1, 500, .nan, -.infinity])
        writer.set(.pressure, time: 0, values: [101_000, 2_000, 101_000, 101_000])
        #expect(writer.refused == 3, "500 m/s, -∞ and 2 hPa; NaN is only missing")
        let grid = try Self.grid(writer.bytes())
        #expect(grid.value(.windEast, time: 0, row: 0, column: 1) == nil)
        #expect(grid.value(.pressure, time: 0, row: 0, column: 1) == nil)
        #expect(grid.sample(at: GeoPoint(latitude: 0.5, longitude: 0.5), time: Double(Self.t0))?.pressure == nil)
    }

    /// Found by fuzzing grid files (2026-12-01): a step the importer never writes, in a file damaged since, was read
    /// as it came (635 kn of wind from a cell's two bytes, 1,290 hPa).
    @Test("a stored step outside what the atmosphere does, in a file damaged after it was written, reads as missing")
    func damagedValues() throws {
        var bytes = Self.smallGrid()
        let layout = try Self.grid(bytes)
        /// The byte offset of `field` at time 0, row 1, column 2.
        func offset(_ field: ForecastField) -> Int {
            let index = layout.fields.firstIndex(of: field)!
            return layout.dataOffset + 2 * ((5 * layout.times.count + 0) * layout.fields.count + index)
        }
        for (field, step) in [(ForecastField.windEast, Int16(32_000)), (.pressure, 29_000), (.precipitation, -5)] {
            bytes[offset(field)] = UInt8(truncatingIfNeeded: step)
            bytes[offset(field) + 1] = UInt8(truncatingIfNeeded: step >> 8)
        }
        let grid = try Self.grid(bytes)
        #expect(grid.value(.windEast, time: 0, row: 1, column: 2) == nil)
        #expect(grid.value(.pressure, time: 0, row: 1, column: 2) == nil)
        #expect(grid.value(.precipitation, time: 0, row: 1, column: 2) == nil)
        #expect(grid.value(.windEast, time: 0, row: 1, column: 1) == 8, "the cells beside it as written")
        let near = grid.sample(at: GeoPoint(latitude: 51, longitude: 0), time: Double(Self.t0))
        #expect(near?.pressure == nil && near?.windEast == nil, "\(String(describing: near))")
    }

    @Test("a wind of two components each in range but together beyond 150 m/s: missing, read or written")
    func vectorBeyondItsLimit() throws {
        var bytes = Self.smallGrid()
        let layout = try Self.grid(bytes)
        // Both components of row 1, column 2 at time 0 set to 140 m/s (14,000 steps): 198 m/s together.
        for field in [ForecastField.windEast, .windNorth] {
            let index = layout.fields.firstIndex(of: field)!
            let offset = layout.dataOffset + 2 * ((5 * layout.times.count + 0) * layout.fields.count + index)
            bytes[offset] = UInt8(truncatingIfNeeded: Int16(14_000))
            bytes[offset + 1] = UInt8(truncatingIfNeeded: Int16(14_000) >> 8)
        }
        let grid = try Self.grid(bytes)
        #expect(grid.value(.windEast, time: 0, row: 1, column: 2) == nil)
        #expect(grid.value(.windNorth, time: 0, row: 1, column: 2) == nil)
        #expect(grid.value(.windEast, time: 0, row: 1, column: 1) == 8, "the cells beside it as written")
        let near = grid.sample(at: GeoPoint(latitude: 51, longitude: 0), time: Double(Self.t0))
        #expect(near?.windSpeed == nil && near?.pressure != nil, "\(String(describing: near))")

        // The importer: 140 east then 140 north (and the other way round) at one point, both left missing, counted.
        for order in [[ForecastField.windEast, .windNorth], [.windNorth, .windEast]] {
            var writer = ForecastGridWriter(
                columns: 2, rows: 2, south: 50, west: 0, rowStep: 1, columnStep: 1, runTime: Self.t0,
                times: [Self.t0], fields: [.windEast, .windNorth], label: "x")
            for field in order {
                writer.set(field, time: 0, values: field == .windEast ? [140, 100, 3, -150] : [140, 100, 3, 0])
            }
            #expect(writer.refused == 1)
            let written = try Self.grid(writer.bytes())
            #expect(written.value(.windEast, time: 0, row: 0, column: 0) == nil)
            #expect(written.value(.windNorth, time: 0, row: 0, column: 0) == nil)
            #expect(written.value(.windNorth, time: 0, row: 0, column: 1) == 100, "141 m/s together: a forecast")
            #expect(written.value(.windEast, time: 0, row: 1, column: 1) == -150)
        }
    }

    struct Broken: Sendable, CustomTestStringConvertible {
        var name: String
        var change: @Sendable ([UInt8]) -> [UInt8]
        var testDescription: String { name }
    }

    static let broken: [Broken] = [
        Broken(name: "empty") { _ in [] },
        Broken(name: "not a grid") { _ in Array("GRIB not really".utf8) },
        Broken(name: "cut short by one byte") { Array($0.dropLast()) },
        Broken(name: "a byte too many") { $0 + [0] },
        Broken(name: "cut in the header") { Array($0.prefix(40)) },
        Broken(name: "version 2") {
            var b = $0
            b[4] = 2
            return b
        },
        Broken(name: "a million columns") {
            var b = $0
            b[10] = 0x0F
            return b
        },
        Broken(name: "columns of 0x90000000 (no Int on the Pi's 32-bit build)") {
            var b = $0
            b[11] = 0x90
            return b
        },
        Broken(name: "no times") {
            var b = $0
            b[16] = 0
            return b
        },
        Broken(name: "an unknown field") {
            var b = $0
            b[64] = 99
            return b
        },
        Broken(name: "a latitude off the earth") { b in
            var b = b
            let bits = (89.5).bitPattern
            for i in 0..<8 { b[24 + i] = UInt8((bits >> (8 * UInt64(i))) & 0xFF) }
            return b
        },
        Broken(name: "a step of NaN") { b in
            var b = b
            let bits = Double.nan.bitPattern
            for i in 0..<8 { b[40 + i] = UInt8((bits >> (8 * UInt64(i))) & 0xFF) }
            return b
        },
        Broken(name: "times that go back") { b in
            var b = b
            let headerLength = Int(b[6]) | Int(b[7]) << 8
            for i in 0..<8 { b[headerLength - 8 + i] = 0 }
            b[headerLength - 8] = 1
            return b
        },
        Broken(name: "random bytes with the magic") { b in
            var seed: UInt64 = 7
            return Array("TTWX".utf8)
                + (0..<2000).map { _ in
                    seed = seed &* 6_364_136_223_846_793_005 &+ 1
                    return UInt8(truncatingIfNeeded: seed >> 33)
                }
        },
    ]

    @Test("a broken file is refused with its reason, and never read past its end", arguments: broken)
    func brokenFiles(_ broken: Broken) {
        let bytes = broken.change(Self.smallGrid())
        #expect(throws: ForecastGrid.FormatError.self) { try Self.grid(bytes) }
    }

    @Test("of several forecasts: the latest run covering the place and time; the others say why not")
    func choice() throws {
        let older = try Self.grid(Self.smallGrid(runTime: Self.t0 - 21_600, label: "old.grb"))
        let newer = try Self.grid(Self.smallGrid(runTime: Self.t0, label: "new.grb"))
        let elsewhere = try Self.grid(Self.smallGrid(west: 20, label: "greece.grb"))
        let forecast = Forecast(grids: [older, newer, elsewhere])
        let boat = GeoPoint(latitude: 50.5, longitude: -1)
        let now = Double(Self.t0) + 600
        #expect(forecast.chosen(at: boat, time: now) == 1)
        #expect(forecast.use(of: 0, at: boat, time: now) == .superseded)
        #expect(forecast.use(of: 1, at: boat, time: now) == .used)
        #expect(forecast.use(of: 2, at: boat, time: now) == .elsewhere)
        #expect(forecast.use(of: 1, at: nil, time: now) == .noPosition)
        let tomorrow = Double(Self.t1) + 86_400
        #expect(forecast.use(of: 1, at: boat, time: tomorrow) == .outOfDate(ended: Double(Self.t1)))
        #expect(forecast.use(of: 1, at: boat, time: Double(Self.t0) - 60) == .notYet(starts: Double(Self.t0)))
        #expect(forecast.sample(at: boat, time: tomorrow) == nil)
        #expect(forecast.times(at: boat, from: Double(Self.t0), hours: 48) == [Double(Self.t0), Double(Self.t1)])
    }
}
