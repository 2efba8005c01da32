import Testing

@testable import Marine

/// The wind speed's part of a step in the log's reading when nothing tells it (``CalibrationLearner/windFallback(_:)``):
/// two afternoons of running a day apart, gybes only (no tack, no bear-away or round-up to tell whether the masthead
/// unit's speed stepped with the log), the second read by other instruments.
@Suite struct WindFallbackTests {
    /// The runs of two afternoons (each 2 hours, a gybe every four minutes), read by `first`'s and `second`'s instruments.
    static func runs(_ first: SyntheticAfternoon, _ second: SyntheticAfternoon) -> [SailingSample] {
        var a = first
        var b = second
        a.instrumentWiden = 0
        b.instrumentWiden = 0
        b.start = a.start + LogStepTests.day
        return (a.samples() + b.samples()).filter {
            $0.time - ($0.time < b.start ? a.start : b.start) >= 7_200
        }
    }

    /// The median of how far the true wind angle under `calibration` is from the simulator's own, on the afternoon
    /// that starts at `from`.
    static func angleError(_ samples: [SailingSample], _ calibration: SailingCalibration, from: Double) -> Double {
        let errors = samples.filter { $0.time >= from && $0.time < from + LogStepTests.day }.compactMap { s in
            s.instrumentTrueAngle.map { abs(Angle.relative(calibration.trueWind(s).angle - $0)) }
        }.sorted()
        return errors[errors.count / 2]
    }

    @Test func aWindThatSteppedWithTheLogIsReadRightWhereTheLogWas() throws {
        // The second afternoon's instruments read the log and the wind both a fifth low (a speed setting changed).
        let samples = Self.runs(SyntheticAfternoon(), SyntheticAfternoon(factor: 1.25, windFactor: 1.25))
        let report = CalibrationLearner().learn(samples)
        try #require(report.roundings.isEmpty && report.calibration.logSteps.count == 1, "\(report.roundings.count)")
        let step = report.calibration.logSteps[0]
        #expect(!step.windTold && abs(step.windRatio - step.ratio) < 1e-12, "not told: with the log's: \(step)")
        // The first afternoon's log read right: the wind is taken to read right there, so 1.25 on the second.
        guard case .provisional = report.awsFactor.status else {
            Issue.record("the wind speed's factor from the steps: \(report.awsFactor)")
            return
        }
        #expect(abs(report.calibration.awsFactor * step.ratio - 1) < 0.03, "\(report.calibration.awsFactor)")
        let second = samples[0].time - 7_200 + LogStepTests.day
        let speeds = samples.filter { $0.time >= second }.map { report.calibration.trueWind($0).speed }.sorted()
        #expect(abs(speeds[speeds.count / 2] - 12) < 0.6, "\(speeds[speeds.count / 2]) kn")
        #expect(Self.angleError(samples, report.calibration, from: second) < 1.5)
        // Without the fallback (the wind taken to read right since the step), the true wind is light by a knot (the
        // apparent wind on a run is a fifth light, the boat's speed, corrected, is not).
        var unscaled = report.calibration
        unscaled.awsFactor = 1
        let light = samples.filter { $0.time >= second }.map { unscaled.trueWind($0).speed }.sorted()
        #expect(abs(light[light.count / 2] - 12) > 0.8, "\(light[light.count / 2]) kn")
    }

    @Test func aLogThatSteppedAloneIsNoWorseThanTheInstruments() throws {
        // Only the log reads a fifth low on the second afternoon: taken to have stepped with the wind, the triangle
        // keeps the instruments' shape, never turned further than they turn it.
        let samples = Self.runs(SyntheticAfternoon(), SyntheticAfternoon(factor: 1.25))
        let report = CalibrationLearner().learn(samples)
        try #require(report.calibration.logSteps.count == 1)
        let second = samples[0].time - 7_200 + LogStepTests.day
        let calibrated = Self.angleError(samples, report.calibration, from: second)
        let uncalibrated = Self.angleError(samples, SailingCalibration(), from: second)
        #expect(calibrated <= uncalibrated + 0.5, "\(calibrated)° calibrated, \(uncalibrated)° as read")
    }

    @Test func noFallbackWhereTheLogReadsNearestRightNow() throws {
        // The first afternoon read both a fifth low, the second right: the wind reads right now, factor 1.
        let samples = Self.runs(SyntheticAfternoon(factor: 1.25, windFactor: 1.25), SyntheticAfternoon())
        let report = CalibrationLearner().learn(samples)
        try #require(report.calibration.logSteps.count == 1)
        #expect(abs(report.calibration.awsFactor - 1) < 0.03, "\(report.awsFactor)")
        if case .provisional = report.awsFactor.status { Issue.record("no fallback: \(report.awsFactor)") }
    }

    @Test func theFallbackFollowsTheStretchWhoseLogReadNearestRight() {
        // Three stretches: the log's factor 0.98, then 1.23 (both read 20 % low), then 1.03 (the wind told alone).
        var calibration = SailingCalibration(speedFactor: 1.03)
        var first = LogStep(
            time: 1, ratio: 0.98 / 1.23, factorBefore: 0.98, factorAfter: 1.23, countBefore: 9, countAfter: 9)
        first.windRatio = first.ratio
        var second = LogStep(
            time: 2, ratio: 1.23 / 1.03, factorBefore: 1.23, factorAfter: 1.03, countBefore: 9, countAfter: 9)
        second.windRatio = 1
        calibration.logSteps = [first, second]
        // The first stretch's log (0.98) is nearest 1: the wind right there, read 1/0.797 since.
        #expect(abs(CalibrationLearner().windFallback(calibration) - 1.23 / 0.98) < 1e-9)
        calibration.speedFactor = 1.0  // now the latest is nearest: 1
        #expect(CalibrationLearner().windFallback(calibration) == 1)
        // Beyond the wind speed's bounds (the first stretch's log and wind read half): not applied, 1.
        calibration.speedFactor = 0.5
        calibration.logSteps = [first]
        calibration.logSteps[0].ratio = 2
        calibration.logSteps[0].windRatio = 1 / 1.5
        #expect(CalibrationLearner().windFallback(calibration) == 1)
        calibration.logSteps[0].windRatio = 1 / 1.3
        #expect(abs(CalibrationLearner().windFallback(calibration) - 1.3) < 1e-9)
    }
}
