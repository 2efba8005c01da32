import Marine
import NMEA
import Testing

@testable import Engine

#if canImport(Glibc)
    import Glibc
#endif

/// The learnt wind calibration applied by the engine: the offset on the measured angle, the factors on the wind speed
/// and the log, before the triangle; the measured apparent wind left as the sensor said it.
@Suite struct CalibrationEngineTests {
    @Test("offset +2°, wind speed × 0.9, log × 1.1: AWA 30° at 15 kn is 32° at 13.5 kn, STW 6 is 6.6; measured kept")
    func applied() {
        var configuration = undampedConfiguration()
        configuration.wind.calibration = SailingCalibration(awaOffset: 2, speedFactor: 1.1, awsFactor: 0.9)
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        engine.ingest(apparent(30, 15), from: nmea, at: 0)
        engine.ingest(waterSpeed(6), from: nmea, at: 0)
        _ = tick(&engine, at: 0)
        let corrected = engine.values.apparentWind!
        #expect(abs(corrected.angle - 32) < 1e-6)
        #expect(abs(Units.knots(metresPerSecond: corrected.speed) - 13.5) < 1e-6)
        #expect(abs(engine.values.apparentWindMeasured!.angle - 30) < 1e-9)
        #expect(abs(Units.knots(metresPerSecond: engine.values.apparentWindMeasured!.speed) - 15) < 1e-6)
        // The true wind from the corrected triangle: 13.5 kn at 32° less 6.6 kn ahead.
        let expected = WindTriangle.trueWind(
            apparent: RelativeWind(angle: 32, speed: 13.5), speedThroughWater: 6.6, leeway: 0)
        let computed = engine.values.trueWind!
        #expect(abs(computed.angle - expected.angle) < 0.01, "\(computed) against \(expected)")
        #expect(abs(Units.knots(metresPerSecond: computed.speed) - expected.speed) < 0.01)
    }

    @Test("the log by side, +0.05: STW 6 is 6.3 on port tack (AWA -30°), 5.7 on starboard (+30°), 6 running (170°)")
    func logBySide() {
        for (angle, expected) in [(-30.0, 6.3), (30, 5.7), (170, 6.0)] {
            var configuration = undampedConfiguration()
            configuration.wind.calibration = SailingCalibration(speedSide: 0.05)
            var engine = Engine(configuration: configuration)
            let nmea = engine.source(named: "nmea0")
            engine.ingest(apparent(angle, 15), from: nmea, at: 0)
            engine.ingest(waterSpeed(6), from: nmea, at: 0)
            _ = tick(&engine, at: 0)
            let speed = Units.knots(metresPerSecond: engine.values.speedThroughWater ?? 0)
            #expect(abs(speed - expected) < 1e-6, "\(angle)°: \(speed) kn")
        }
    }

    @Test(
        "the upwash by wind speed: at 30° and 15 kn apparent, 6 kn through the water, the table's upwash at the true wind"
    )
    func upwashByWind() {
        var configuration = undampedConfiguration()
        var calibration = SailingCalibration()
        calibration.upwashByWind = UpwashByWind(windSpeeds: [6, 14], upwind: [-2, -6], downwind: [0, 0])
        configuration.wind.calibration = calibration
        var engine = Engine(configuration: configuration)
        let nmea = engine.source(named: "nmea0")
        engine.ingest(apparent(30, 15), from: nmea, at: 0)
        engine.ingest(waterSpeed(6), from: nmea, at: 0)
        _ = tick(&engine, at: 0)
        // The true wind of the measured wind, by the cosine rule: about 10.2 kn, two fifths of the way to 14.
        let tws = (15.0 * 15 + 6 * 6 - 2 * 15 * 6 * cos(30 * Double.pi / 180)).squareRoot()
        let upwash = -2 + (tws - 6) / 8 * -4
        #expect(abs(engine.values.apparentWind!.angle - (30 + upwash)) < 1e-3, "\(tws) kn: \(upwash)°")
    }

    @Test(
        "a step in the log's reading: a reading from before it (a replay of an old log) is read as the log read then"
    )
    func logStepDated() {
        var calibration = SailingCalibration(speedFactor: 1.05)
        var step = LogStep(
            time: 1_000_000, ratio: 1.2, factorBefore: 1.26, factorAfter: 1.05, countBefore: 20, countAfter: 20)
        step.windRatio = 1.1
        calibration.logSteps = [step]
        // Before the step, after it, and with the clock not known yet (as the log reads now).
        for (clock, knots, wind) in [(999_000.0, 7.56, 16.5), (1_000_500, 6.3, 15), (nil, 6.3, 15)] {
            var configuration = undampedConfiguration()
            configuration.wind.calibration = calibration
            var engine = Engine(configuration: configuration)
            if let clock { engine.setClock(unixTime: clock, at: 0) }
            let nmea = engine.source(named: "nmea0")
            engine.ingest(apparent(30, 15), from: nmea, at: 0)
            engine.ingest(waterSpeed(6), from: nmea, at: 0)
            _ = tick(&engine, at: 0)
            let speed = Units.knots(metresPerSecond: engine.values.speedThroughWater ?? 0)
            let apparent = Units.knots(metresPerSecond: engine.values.apparentWind?.speed ?? 0)
            #expect(
                abs(speed - knots) < 1e-6 && abs(apparent - wind) < 1e-6,
                "\(String(describing: clock)): \(speed), \(apparent)")
        }
    }
}
