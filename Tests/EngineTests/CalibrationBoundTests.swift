import Marine
import NMEA
import Testing

@testable import Engine

/// The calibrated true wind angle never more than 12° from the uncalibrated one (#50): each tick's calibration applied
/// only as far as that keeps it, and the damped angle held to it.
@Suite struct CalibrationBoundTests {
    static let wholeCalibration = SailingCalibration(awaOffset: -5, speedFactor: 1.25)

    /// Two engines on the same readings, one with `calibration`: each tick's true wind angle of both (degrees), and the
    /// calibrated engine's share and hold, after `readings` (AWA, AWS, STW; one a second, ten ticks a second).
    static func run(
        _ configuration: EngineConfiguration, _ calibration: SailingCalibration, _ readings: [(Double, Double, Double)]
    )
        -> (angles: [(Double, Double)], shares: [Double], held: Int, notices: [String])
    {
        var plain = Engine(configuration: configuration)
        var calibrated = configuration
        calibrated.wind.calibration = calibration
        var engine = Engine(configuration: calibrated)
        var angles: [(Double, Double)] = []
        var shares: [Double] = []
        var held = 0
        for (second, (awa, aws, stw)) in readings.enumerated() {
            for e in [0, 1] {
                var target = e == 0 ? plain : engine
                let nmea = target.source(named: "nmea0")
                target.ingest(apparent(awa, aws), from: nmea, at: Double(second))
                target.ingest(waterSpeed(stw), from: nmea, at: Double(second))
                target.ingest(trueHeading(200), from: nmea, at: Double(second))
                if e == 0 { plain = target } else { engine = target }
            }
            for step in 0..<10 {
                let now = Double(second) + Double(step) / 10
                _ = tick(&plain, at: now)
                _ = tick(&engine, at: now)
                guard let a = plain.values.trueWind?.angle, let b = engine.values.trueWind?.angle else { continue }
                angles.append((a, b))
                shares.append(engine.values.calibrationShare)
                if engine.values.calibrationHeld { held += 1 }
            }
        }
        return (angles, shares, held, engine.notices)
    }

    @Test("undamped, a drift: the angle is turned 12° where all of it would turn it 23°; a breeze gets all of it")
    func undamped() {
        let light = Self.run(undampedConfiguration(), Self.wholeCalibration, [(30, 4, 3.5)])
        let (plain, calibrated) = light.angles.last!
        let turn = abs(Angle.difference(from: plain, to: calibrated))
        #expect(turn <= 12 + 1e-9 && turn > 11.9, "\(turn)")
        #expect(light.shares.last! < 0.6)
        #expect(light.notices.contains { $0.hasPrefix("calibration: applied only in part") })
        let breeze = Self.run(undampedConfiguration(), Self.wholeCalibration, [(30, 15, 6)])
        let expected = WindTriangle.trueWind(apparent: RelativeWind(angle: 25, speed: 15), speedThroughWater: 7.5)
        #expect(abs(breeze.angles.last!.1 - expected.angle) < 0.01 && breeze.shares.last! == 1)
        #expect(breeze.notices.allSatisfy { !$0.hasPrefix("calibration") })
    }

    @Test("damped, a light air whose masthead unit reads no wind one second in five: never more than 12° apart")
    func dampedGlitches() {
        // 2 to 3 kn apparent swinging from 70° to 150° with the boat at 2 kn; every fifth second the unit reads 0 kn.
        var readings: [(Double, Double, Double)] = []
        for second in 0..<300 {
            let swing = 110 + 40 * sin(Double(second) / 7)
            readings.append((-swing, second % 5 == 4 ? 0 : 2.5 + 0.5 * cos(Double(second) / 3), 2))
        }
        let result = Self.run(EngineConfiguration(), SailingCalibration(awaOffset: -6, speedFactor: 1.3), readings)
        let most = result.angles.map { abs(Angle.difference(from: $0.0, to: $0.1)) }.max() ?? 0
        #expect(most <= 12 + 1e-9, "\(most)")
        #expect(result.held > 0, "the damped angles never swung apart: the hold was not needed")
        #expect(result.shares.contains { $0 < 1 })
    }
}
