import Testing

@testable import Marine

#if canImport(Glibc)
    import Glibc
#endif

/// A synthetic windward-leeward race: 12 kn from 10° over the water, legs of six minutes, beating at TWA 42° (6 kn)
/// then running at TWA 150° (7 kn), the turn between them taking 30 s; the masthead unit's wind speed reads `factor`
/// times the true apparent wind speed.
struct WindwardLeeward {
    var factor = 1.0
    var noise = 0.3

    func samples() -> [SailingSample] {
        var seed: UInt64 = 11
        func jitter() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(seed >> 11) / Double(1 << 53) - 0.5) * 2 * noise
        }
        var out: [SailingSample] = []
        for second in 0..<(24 * 390) {
            let leg = second / 390
            let into = Double(second % 390)
            let side: Double = (leg / 2) % 2 == 0 ? 1 : -1
            let upwind = leg % 2 == 0
            let from = upwind ? 42.0 : 150.0
            let to = upwind ? 150.0 : 42.0
            // The last 30 s of a leg turn towards the next leg's angle.
            let f = into < 360 ? 0 : (into - 360) / 30
            let size = from + (to - from) * f
            let speed = (upwind ? 6.0 : 7.0) + ((upwind ? 7.0 : 6.0) - (upwind ? 6.0 : 7.0)) * f
            let wind = RelativeWind(angle: side * size, speed: 12 + jitter())
            let apparent = WindTriangle.apparentWind(true: wind, speedThroughWater: speed)
            let heading = Angle.direction(10 - side * size)
            out.append(
                SailingSample(
                    time: 1_700_000_000 + Double(second), awa: apparent.angle + jitter(),
                    aws: apparent.speed * factor, stw: speed, heading: heading, cog: heading, sog: speed))
        }
        return out
    }
}

@Suite struct WindSpeedFactorTests {
    @Test func roundingsAreFound() {
        let samples = WindwardLeeward().samples()
        let roundings = ManoeuvreFinder().roundings(in: samples)
        #expect(roundings.filter { $0.kind == .bearAway }.count >= 10, "\(roundings.count)")
        #expect(roundings.filter { $0.kind == .roundUp }.count >= 10, "\(roundings.count)")
        #expect(ManoeuvreFinder().manoeuvres(in: samples).isEmpty, "a bear-away on one tack is no tack")
    }

    @Test func aWindSpeedReadingHighIsLearnt() {
        let report = CalibrationLearner().learn(WindwardLeeward(factor: 1.12).samples())
        #expect(abs(report.awsFactor.value - 1 / 1.12) < 0.02, "\(report.awsFactor)")
        #expect(report.awsFactor.isSure && report.calibration.awsFactor == report.awsFactor.value)
        let samples = WindwardLeeward(factor: 1.12).samples()
        let before = CalibrationReport.windSpeedBias(samples, report.roundings, SailingCalibration())
        let after = CalibrationReport.windSpeedBias(samples, report.roundings, report.calibration)
        #expect(before < -0.5 && abs(after) < 0.1, "downwind less upwind \(before) kn, then \(after) kn")
    }

    @Test func aTrueWindSpeedLearnsNoFactor() {
        let report = CalibrationLearner().learn(WindwardLeeward().samples())
        #expect(abs(report.awsFactor.value - 1) < 0.02, "\(report.awsFactor)")
    }

    @Test func tooFewRoundingsSayNotEnoughData() {
        let samples = Array(WindwardLeeward(factor: 1.12).samples().prefix(4 * 390))
        let report = CalibrationLearner().learn(samples)
        #expect(report.awsFactor.status == .notEnoughData && report.calibration.awsFactor == 1)
    }

    @Test func aFactorBeyondItsBoundsIsAFault() {
        let report = CalibrationLearner().learn(WindwardLeeward(factor: 0.6).samples())
        guard case .sensorFault = report.awsFactor.status else {
            Issue.record("a wind speed reading 0.6 is not a fault: \(report.awsFactor)")
            return
        }
        #expect(report.calibration.awsFactor == 1)
    }

    @Test func theFactorIsReadBackFromItsFile() {
        var calibration = SailingCalibration(awsFactor: 0.9)
        #expect(calibration.windSpeed(10) == 9)
        calibration = calibration.then(SailingCalibration(awsFactor: 1.1))
        #expect(abs(calibration.awsFactor - 0.99) < 1e-12)
    }
}

@Suite struct SteadyHeadingTests {
    /// Found with the windward-leeward race: a heading held exactly made the mean resultant length a hair over 1, its
    /// logarithm positive, the spread NaN, and the window "not steady".
    @Test func aHeadingHeldExactlyIsSteady() {
        let samples = (0..<60).map {
            SailingSample(time: Double($0), awa: 30, aws: 15, stw: 6, heading: 220, cog: 220, sog: 6)
        }
        #expect(ManoeuvreFinder().steady(samples, 0..<60))
    }
}
