import Marine
import NMEA
import TestSupport
import Testing

@testable import Engine

/// The tide on board (#51): when the engine asks for stations, the height and the events from the nearest, the
/// water at the next low, the stream weighed between current stations, and the current the instruments measure.
/// Stations of known constants (a pure M2 tide, pure M2 streams), so that each figure is worked by hand.
@Suite struct TideWatchTests {
    /// 2026-08-15 00:00 UTC.
    static let day = 1_786_752_000.0

    /// A tide of 1 m (M2 only) about a mean of 2 m at 50N 5W, its epoch 0 on UTC.
    static func tideStation() -> TideStation {
        let harmonics = TideHarmonics(constituents: [("M2", 1.0, 0)], datum: 2.0)!
        return TideStation(
            name: "Test Harbour", kind: .tide, latitude: 50, longitude: -5, harmonics: harmonics, datum: "Chart Datum")
    }

    /// A 2-knot M2 stream, flooding towards `flood` degrees, its epoch `epoch`.
    static func currentStation(_ name: String, latitude: Double, longitude: Double, flood: Double, epoch: Double = 0)
        -> TideStation
    {
        let harmonics = TideHarmonics(constituents: [("M2", 2.0, epoch)], datum: 0)!
        return TideStation(
            name: name, kind: .current, latitude: latitude, longitude: longitude, harmonics: harmonics,
            floodDirection: flood, ebbDirection: (flood + 180).truncatingRemainder(dividingBy: 360))
    }

    @Test("the stations are asked for at the first fix, again only two miles on and a minute later")
    func asking() {
        var watch = TideWatch()
        let settings = TideSettings()
        watch.ask(at: GeoPoint(latitude: 50, longitude: -5), now: 0, settings: settings)
        #expect(watch.request == GeoPoint(latitude: 50, longitude: -5))
        watch.request = nil
        // A mile north, then three miles north but within the minute, then after it.
        watch.ask(at: GeoPoint(latitude: 50 + 1 / 60.0, longitude: -5), now: 120, settings: settings)
        #expect(watch.request == nil)
        watch.ask(at: GeoPoint(latitude: 50, longitude: -5), now: 121, settings: settings)
        watch.ask(at: GeoPoint(latitude: 50 + 3 / 60.0, longitude: -5), now: 130, settings: settings)
        #expect(watch.request == GeoPoint(latitude: 50 + 3 / 60.0, longitude: -5))
        watch.request = nil
        watch.ask(at: GeoPoint(latitude: 50 + 6 / 60.0, longitude: -5), now: 150, settings: settings)
        #expect(watch.request == nil)
        watch.ask(at: GeoPoint(latitude: 50 + 6 / 60.0, longitude: -5), now: 191, settings: settings)
        #expect(watch.request != nil)
    }

    @Test("a pure M2 tide: highs and lows 6 h 12.6 min apart about the mean, the water at the next low worked out")
    func heightsAndLowWater() throws {
        var watch = TideWatch()
        watch.set(TideStations(near: GeoPoint(latitude: 50, longitude: -5), tide: Self.tideStation(), currents: []))
        var settings = TideSettings()
        let boat = GeoPoint(latitude: 50.01, longitude: -5)
        let first = watch.report(utc: Self.day, point: boat, depth: 4.0, settings: settings)
        let report = try #require(first)
        let high = try #require(report.nextHigh)
        let low = try #require(report.nextLow)
        // M2's node factor is 0.96 to 1.04: the extremes are 2 ± f.
        #expect(abs(high.value - 2 - (2 - low.value)) < 0.001 && high.value > 2.95 && high.value < 3.05)
        let halfPeriod = 12.420_601 * 3600 / 2
        #expect(abs(abs(high.time - low.time) - halfPeriod) < 2)
        #expect(report.station == "Test Harbour" && abs(report.distance - 1112) < 5 && report.datum == "Chart Datum")
        #expect(report.depthAtNextLow.map { abs($0 - (4.0 - report.height + low.value)) < 1e-9 } == true)
        #expect(report.depthIsBelowKeel == false)
        // With a draft of 1.8 m and the transducer 0.4 m down: 1.4 m less under the keel.
        settings.draft = 1.8
        settings.transducerDepth = 0.4
        let second = watch.report(utc: Self.day, point: boat, depth: 4.0, settings: settings)
        let keel = try #require(second)
        #expect(keel.depthIsBelowKeel && abs((keel.depthAtNextLow ?? 0) - (report.depthAtNextLow ?? 0) + 1.4) < 1e-9)
        #expect(keel.rising == (keel.nextHigh!.time < keel.nextLow!.time))
        // No sounding, no depth at low water.
        let dry = watch.report(utc: Self.day, point: boat, depth: nil, settings: settings)
        #expect(dry != nil && dry?.depthAtNextLow == nil)
    }

    @Test("the stream between two stations flooding north and east is their mean, the nearer alone within 200 m")
    func streamWeighed() throws {
        var watch = TideWatch()
        let west = Self.currentStation("West", latitude: 50, longitude: -5.05, flood: 0)
        let east = Self.currentStation("East", latitude: 50, longitude: -4.95, flood: 90)
        watch.set(TideStations(near: GeoPoint(latitude: 50, longitude: -5), tide: nil, currents: [west, east]))
        // At a strongest flood of either (the same constants), halfway between them.
        var curve = west.curve()
        let events = curve.events(from: Self.day, to: Self.day + 50_000)
        let flood = try #require(events.first { $0.kind == .flood })
        let between = watch.stream(utc: flood.time, point: GeoPoint(latitude: 50, longitude: -5))
        let stream = try #require(between)
        #expect(abs(stream.set - 45) < 0.5 && stream.stations == 2)
        let knots = stream.drift * 3600 / 1852
        #expect(abs(knots - flood.value * 2.squareRoot() / 2) < 0.02)
        let beside = watch.stream(utc: flood.time, point: GeoPoint(latitude: 50.001, longitude: -4.95))
        let near = try #require(beside)
        #expect(abs(near.set - 90) < 0.01 && near.stations == 1 && near.station == "East")
        // At the ebb both set the other way.
        let ebb = try #require(events.first { $0.kind == .ebb })
        let ebbing = watch.stream(utc: ebb.time, point: GeoPoint(latitude: 50, longitude: -5))
        let back = try #require(ebbing)
        #expect(abs(back.set - 225) < 0.5)
    }

    @Test("the current measured: over the ground less through the water, leeway included, after half a minute")
    func measured() throws {
        var mean = CurrentMean()
        let knot = 1852.0 / 3600
        for second in 0..<29 {
            mean.add(ground: (5 * knot, 90), water: (4 * knot, 90))
            #expect(mean.value == nil, "\(second)")
        }
        mean.add(ground: (5 * knot, 90), water: (4 * knot, 90))
        let current = try #require(mean.value)
        #expect(abs(current.set - 90) < 1e-6 && abs(current.drift - knot) < 1e-9)
        // Heading 000 at 4 kn with 10° of leeway to starboard, over the ground 4 kn on 010: no current.
        mean.reset()
        for _ in 0..<60 { mean.add(ground: (4 * knot, 10), water: (4 * knot, 0 + 10)) }
        #expect((mean.value?.drift ?? 1) < 1e-9)
    }
}
