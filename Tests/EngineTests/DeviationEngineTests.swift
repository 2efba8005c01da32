import Marine
import NMEA
import Testing

@testable import Engine

/// The learnt compass card applied by the engine: the heading it computes (and sends, and steers the true wind's
/// direction by) corrected, the compass's own reading (HDG out) left as the sensor said it.
@Suite struct DeviationEngineTests {
    @Test("a card of 3° sin h: 90° on the compass is 93° true, 270° is 267°; HDG out keeps the sensor's 90°")
    func applied() throws {
        var configuration = undampedConfiguration()
        configuration.variation = 0
        configuration.kinds.insert(.headingMagnetic)
        configuration.wind.calibration = SailingCalibration(deviation: DeviationCurve([0, 3, 0, 0, 0]))
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        engine.ingest(encoded(HDG(sensorHeading: 90, deviation: nil, variation: 0), talker: "HC"), from: nmea, at: 0)
        let out = tick(&engine, at: 0)
        #expect(abs((engine.values.headingTrue ?? 0) - 93) < 1e-9)
        let hdg = try #require(decoded(HDG.self, out[.headingMagnetic]))
        #expect(hdg.sensorHeading == 90)
        engine.ingest(encoded(HDG(sensorHeading: 270, deviation: nil, variation: 0), talker: "HC"), from: nmea, at: 1)
        _ = tick(&engine, at: 1)
        #expect(abs((engine.values.headingTrue ?? 0) - 267) < 1e-9)
    }

    @Test("a learnt leeway coefficient replaces the configured model's: K 6, heel 10° at 5 kn is 2.4°")
    func leeway() {
        var configuration = undampedConfiguration()
        configuration.wind.leeway = LeewayModel()
        configuration.wind.calibration = SailingCalibration(leewayCoefficient: 6)
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        engine.ingest(waterSpeed(5), from: nmea, at: 0)
        engine.ingest(encoded(XDR([.angle(10, name: "HEEL")]), talker: "II"), from: nmea, at: 0)
        _ = tick(&engine, at: 0)
        #expect(abs((engine.values.leeway ?? 0) - 2.4) < 1e-6, "leeway \(String(describing: engine.values.leeway))")
    }
}
