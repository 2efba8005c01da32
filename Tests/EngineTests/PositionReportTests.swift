import Engine
import Marine
import NMEA
import TestSupport
import Testing

/// RMC, GGA and VTG as the gateway sends them: each fix once, its date and GGA's fields kept, `V` when stale.
@Suite struct PositionReportTests {
    static func engine(stale: StaleBehavior = .invalid) -> (Engine, SourceID) {
        var configuration = undampedConfiguration()
        configuration.kinds = [.positionRMC, .positionGGA, .positionVTG]
        configuration.staleBehavior = stale
        var engine = Engine(configuration: configuration)
        return (engine, engine.source(named: "gps"))
    }

    static let date = UTCDate(year: 2026, month: 11, day: 22)

    static func rmc(second: Int) -> Sentence {
        try! RMC(
            time: UTCTime(millisecondsOfDay: 36_000_000 + second * 1000), isValid: true, latitude: 50,
            longitude: -1 + Double(second) * 1e-5, speedOverGround: 5, courseOverGround: 90, date: date,
            mode: .autonomous
        ).encode(talker: "GP")
    }

    /// Ticks at 10 Hz from `from` to `to` (engine seconds), collecting every position sentence.
    static func run(
        _ engine: inout Engine, from: Double, to: Double, feed: (inout Engine, Double) -> Void = { _, _ in }
    )
        -> [Sentence]
    {
        var out: [Sentence] = []
        var t = from
        while t < to {
            feed(&engine, t)
            engine.tick(at: t) { _, sentence in out.append(sentence) }
            t += 0.1
        }
        return out
    }

    @Test("RMC made from an NMEA RMC input carries its date (it was empty)")
    func rmcKeepsDate() throws {
        var (engine, gps) = Self.engine()
        engine.ingest(Self.rmc(second: 0), from: gps, at: 0)
        var out: [ComputedKind: Sentence] = [:]
        engine.tick(at: 0.05) { kind, sentence in out[kind] = sentence }
        let rmc = try #require(decoded(RMC.self, out[.positionRMC]))
        #expect(rmc.date == Self.date && rmc.isValid == true)
    }

    @Test("GGA from gpsd carries the satellites, HDOP, altitude and geoid separation gpsd gave")
    func ggaFromGPSD() throws {
        var (engine, gps) = Self.engine()
        let fix = Fix(
            point: GeoPoint(latitude: 50, longitude: -1), utc: UTCTime(hours: 10, minutes: 0, seconds: 0),
            date: Self.date, mode: .autonomous, satellites: 9, horizontalDilution: 0.9, altitude: 12.3,
            geoidSeparation: 47.1)
        engine.ingest(fix, motion: GroundMotion(speed: 2.5, course: 90), from: gps, at: 0)
        var out: [ComputedKind: Sentence] = [:]
        engine.tick(at: 0.05) { kind, sentence in out[kind] = sentence }
        let gga = try #require(decoded(GGA.self, out[.positionGGA]))
        #expect(gga.satellites == 9 && gga.horizontalDilution == 0.9 && gga.quality == 1)
        #expect(gga.altitude == 12.3 && gga.geoidSeparation == 47.1)
        #expect(decoded(RMC.self, out[.positionRMC])?.date == Self.date)
    }

    @Test("an RMC and a GGA of the same second complete one fix: the date from one, the satellites from the other")
    func rmcAndGGAMerge() throws {
        var (engine, gps) = Self.engine()
        engine.ingest(Self.rmc(second: 0), from: gps, at: 0)
        let gga = try GGA(
            time: UTCTime(millisecondsOfDay: 36_000_000), latitude: 50, longitude: -1, quality: 1, satellites: 7,
            horizontalDilution: 1.2, altitude: 3
        ).encode(talker: "GP")
        engine.ingest(gga, from: gps, at: 0.01)
        var out: [ComputedKind: Sentence] = [:]
        engine.tick(at: 0.05) { kind, sentence in out[kind] = sentence }
        #expect(decoded(RMC.self, out[.positionRMC])?.date == Self.date)
        #expect(decoded(GGA.self, out[.positionGGA])?.satellites == 7)
    }

    @Test("fixes at 1 Hz arriving with jitter give every UTC second exactly once, never repeated or skipped")
    func everySecondOnce() throws {
        var (engine, gps) = Self.engine()
        // Arrival jitter up to ±0.35 s around each second, ticks at 10 Hz.
        let jitter = [0.0, 0.3, -0.35, 0.2, 0.35, -0.3, 0.1, 0.0, 0.34, -0.2, 0.25, -0.34]
        var fed = 0
        let out = Self.run(&engine, from: 0, to: 12.5) { engine, t in
            while fed < jitter.count, Double(fed) + 0.5 + jitter[fed] <= t {
                engine.ingest(Self.rmc(second: fed), from: gps, at: t)
                fed += 1
            }
        }
        let times = out.compactMap { decoded(RMC.self, $0) }.compactMap { $0.time?.millisecondsOfDay }
        #expect(times == (0..<12).map { 36_000_000 + $0 * 1000 })
        #expect(out.compactMap { decoded(GGA.self, $0) }.count == 12)
    }

    @Test("when the GPS stops, nothing repeats; after the timeout RMC says V on a running clock, and resumes cleanly")
    func gpsStopsAndReturns() throws {
        var (engine, gps) = Self.engine()
        // Fixes 0...4 at 1 Hz, a gap (gpsd stopped) from 5 to 15 s, then fixes 15...19.
        let fixSeconds = Array(0...4) + Array(15...19)
        var fed = 0
        let out = Self.run(&engine, from: 0, to: 20.5) { engine, t in
            while fed < fixSeconds.count, Double(fixSeconds[fed]) + 0.02 <= t {
                engine.ingest(Self.rmc(second: fixSeconds[fed]), from: gps, at: t)
                fed += 1
            }
        }
        let rmcs = out.compactMap { decoded(RMC.self, $0) }
        let valid = rmcs.filter { $0.isValid == true }.compactMap { $0.time?.millisecondsOfDay }
        #expect(valid == fixSeconds.map { 36_000_000 + $0 * 1000 })
        let invalid = rmcs.filter { $0.isValid == false }
        // Stale after the 5 s position timeout (the last fix at 4 s): V from about 9 s until the fix at 15 s.
        #expect((5...7).contains(invalid.count), "\(invalid.count) invalid RMC")
        #expect(invalid.allSatisfy { $0.latitude == nil && $0.mode == .notValid && $0.date == Self.date })
        // The clock runs on through the gap: each V a second after the one before, none repeated.
        let invalidTimes = invalid.compactMap { $0.time?.millisecondsOfDay }
        #expect(invalidTimes.count == invalid.count)
        #expect(zip(invalidTimes, invalidTimes.dropFirst()).allSatisfy { $1 - $0 == 1000 })
        #expect(out.compactMap { decoded(GGA.self, $0) }.contains { $0.quality == 0 })
        #expect(out.compactMap { decoded(VTG.self, $0) }.contains { $0.mode == .notValid })
    }

    @Test("with stale = silent nothing goes out once the position is stale")
    func silentWhenStale() {
        var (engine, gps) = Self.engine(stale: .silent)
        var fed = false
        let out = Self.run(&engine, from: 0, to: 12) { engine, t in
            if !fed {
                engine.ingest(Self.rmc(second: 0), from: gps, at: t)
                fed = true
            }
        }
        #expect(out.compactMap { decoded(RMC.self, $0) }.count == 1)
    }
}

/// How the fix was made, kept on its way through: GGA's quality and the FAA mode are two codings of one thing.
@Suite struct FixQualityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var quality: Int
        var mode: Character
        var testDescription: String { "quality \(quality) is mode \(mode)" }
    }

    @Test(
        "every GGA quality of a fix has its FAA mode and back",
        arguments: [
            Case(quality: 1, mode: "A"), Case(quality: 2, mode: "D"), Case(quality: 3, mode: "P"),
            Case(quality: 4, mode: "R"), Case(quality: 5, mode: "F"), Case(quality: 6, mode: "E"),
            Case(quality: 8, mode: "S"),
        ])
    func codings(_ c: Case) throws {
        let mode = try #require(FAAMode(ggaQuality: c.quality))
        #expect(mode.rawValue == c.mode.asciiValue)
        #expect(mode.ggaQuality == c.quality)
        #expect(FAAMode(ggaQuality: 0) == nil)
    }

    @Test("a DGPS fix from gpsd goes out as GGA quality 2 and RMC mode D, with its satellites and HDOP")
    func differentialFix() throws {
        var (engine, gps) = PositionReportTests.engine()
        let fix = Fix(
            point: GeoPoint(latitude: 50, longitude: -1), utc: UTCTime(hours: 10, minutes: 0, seconds: 0),
            date: PositionReportTests.date, mode: .differential, satellites: 11, horizontalDilution: 0.7)
        engine.ingest(fix, motion: GroundMotion(speed: 2.5, course: 90), from: gps, at: 0)
        var out: [ComputedKind: Sentence] = [:]
        engine.tick(at: 0.05) { kind, sentence in out[kind] = sentence }
        let gga = try #require(decoded(GGA.self, out[.positionGGA]))
        #expect(gga.quality == 2 && gga.satellites == 11 && gga.horizontalDilution == 0.7)
        let rmc = try #require(decoded(RMC.self, out[.positionRMC]))
        #expect(rmc.mode == .differential)
    }
}
