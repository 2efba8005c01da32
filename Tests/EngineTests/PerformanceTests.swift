import Engine
import Marine
import NMEA
import Testing

/// The boat against its polar through the engine: Signal K's performance values and the XDR that carries them.
@Suite struct PerformanceTests {
    static let polar = try! Polar.parse(
        """
        TWA\\TWS;6;10
        40;4;5
        60;5;6.5
        90;6;7.5
        150;5;7
        180;4;6.5
        """)

    @Test("REFERENCE's worked example (TWA 47.01°, TWS 10.25 kn, STW 6 kn) against a hand-worked polar")
    func workedExample() throws {
        var configuration = undampedConfiguration()
        configuration.polar = Self.polar
        configuration.kinds = [.performance]
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        engine.ingest(apparent(30, 15), from: nmea, at: 0)
        engine.ingest(waterSpeed(6), from: nmea, at: 0)
        engine.ingest(trueHeading(100), from: nmea, at: 0)
        let out = tick(&engine, at: 0.1)
        let performance = try #require(engine.values.performance)
        // Above the 10 kn curve: its speed, 5 + (47.01 - 40) / 20 × 1.5 = 5.526 kn.
        #expect(abs(Units.knots(metresPerSecond: performance.polarSpeed) - 5.5258) < 0.001)
        #expect(abs(performance.polarRatio! - 6 / 5.5258) < 0.001)
        // Upwind on the 10 kn curve, v = 5 + 0.075 (a - 40) kn: d(v cos a)/da = 0.075 cos a - v sin a · π/180 is
        // +0.0013 at 40° and falls through 0 just past 40.5° (VMG 3.83055 kn, at 5.0375 kn).
        #expect(performance.upwind && performance.target.angle == 40.5)
        #expect(abs(Units.knots(metresPerSecond: performance.target.speed) - 5.0375) < 1e-9)
        #expect(abs(Units.knots(metresPerSecond: performance.target.windwardSpeed) - 3.83055) < 1e-5)
        #expect(performance.run.angle > 150 && performance.run.angle < 180)
        let xdr = try #require(out[.performance]).description
        #expect(xdr.hasPrefix("$IIXDR,G,5.53,N,POLSPD,G,109,P,POLPCT,A,40.5,D,TGTTWA,G,5.04,N,TGTSPD*"), "\(xdr)")
    }

    @Test("no polar, no true wind: nothing; downwind the run is the target; speed over ground is no polar ratio")
    func without() throws {
        var plain = Engine(configuration: undampedConfiguration())
        let source = plain.source(named: "nmea0")
        plain.ingest(apparent(150, 10), from: source, at: 0)
        plain.ingest(waterSpeed(6), from: source, at: 0)
        plain.ingest(trueHeading(100), from: source, at: 0)
        _ = tick(&plain, at: 0.1)
        #expect(plain.values.trueWind != nil && plain.values.performance == nil)

        var configuration = undampedConfiguration()
        configuration.polar = Self.polar
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        engine.ingest(apparent(150, 10), from: nmea, at: 0)
        engine.ingest(waterSpeed(6), from: nmea, at: 0)
        engine.ingest(trueHeading(100), from: nmea, at: 0)
        _ = tick(&engine, at: 0.1)
        let performance = try #require(engine.values.performance)
        #expect(!performance.upwind && performance.target == performance.run)
    }
}
