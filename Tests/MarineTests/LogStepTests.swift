import Testing

@testable import Marine

#if canImport(Glibc)
    import Glibc
#endif

/// Steps in the log's reading between days (``LogStep``): two afternoons a day apart, the log (and the masthead unit's
/// speed) reading differently on the first.
@Suite struct LogStepTests {
    static let day = 86_400.0

    /// Two afternoons of 16-minute stretches up and down wind (15 bear-aways and round-ups each), the first read by
    /// `first`'s instruments, the second by `second`'s, a day apart.
    static func twoDays(_ first: SyntheticAfternoon, _ second: SyntheticAfternoon) -> [SailingSample] {
        var a = first
        var b = second
        a.stretch = 960
        b.stretch = 960
        b.start = a.start + day
        return a.samples() + b.samples()
    }

    /// The current over the ground (knots) each manoeuvre's windows say under `calibration`, on the first afternoon.
    static func currents(_ samples: [SailingSample], _ report: CalibrationReport, _ calibration: SailingCalibration)
        -> [Double]
    {
        report.manoeuvres.filter { $0.time < samples[0].time + day }.compactMap { m in
            let window = WindowMeans(samples, m.before, calibration)
            return window.ground.map { ($0 - window.water).magnitude }
        }.sorted()
    }

    @Test func aFouledLogBetweenDaysIsFoundAndTheLogSinceIsLearnt() throws {
        let samples = Self.twoDays(SyntheticAfternoon(factor: 1.25), SyntheticAfternoon())
        let report = CalibrationLearner().learn(samples)
        let steps = report.calibration.logSteps
        try #require(steps.count == 1, "\(steps)")
        #expect(abs(steps[0].ratio - 1.25) < 0.02, "\(steps[0])")
        #expect(steps[0].windRatio == 1 && steps[0].windTold, "the wind speed read alike: \(steps[0])")
        // The first second of the second afternoon.
        #expect(steps[0].time == samples[0].time + Self.day, "\(steps[0].time - samples[0].time)")
        #expect(abs(report.speedFactor.value - 1) < 0.01 && report.speedFactor.isSure, "\(report.speedFactor)")
        // The first afternoon's current is the 0.6 kn sailed in with the step; without it, far from it.
        var noStep = report.calibration
        noStep.logSteps = []
        let with = Self.currents(samples, report, report.calibration)
        let without = Self.currents(samples, report, noStep)
        #expect(abs(with[with.count / 2] - 0.6) < 0.1, "\(with[with.count / 2]) kn")
        #expect(abs(without[without.count / 2] - 0.6) > 0.5, "\(without[without.count / 2]) kn")
    }

    @Test func aWindSpeedThatSteppedWithTheLogIsScaledWithIt() throws {
        let samples = Self.twoDays(SyntheticAfternoon(factor: 1.25, windFactor: 1.25), SyntheticAfternoon())
        let report = CalibrationLearner().learn(samples)
        let steps = report.calibration.logSteps
        try #require(steps.count == 1, "\(steps)")
        #expect(abs(steps[0].windRatio - steps[0].ratio) < 1e-12 && abs(steps[0].ratio - 1.25) < 0.02, "\(steps[0])")
        #expect(steps[0].windTold, "fifteen bear-aways and round-ups a day, in a steady wind: \(steps[0])")
        // The first afternoon's true wind is the 12 kn sailed in; with the log scaled alone, it is not.
        var logAlone = report.calibration
        logAlone.logSteps[0].windRatio = 1
        let first = samples.filter { $0.time < samples[0].time + Self.day }
        for (calibration, near) in [(report.calibration, true), (logAlone, false)] {
            let speeds = first.map { calibration.trueWind($0).speed }.sorted()
            let median = speeds[speeds.count / 2]
            #expect((abs(median - 12) < 0.5) == near, "\(median) kn")
        }
    }

    @Test func theTacksTellTheWindSpeedsPartWhereTheRoundingsCannot() throws {
        // Two hours of beating then two of running each afternoon: one bear-away a day, thirty tacks.
        for wind in [1.25, 1.0] {
            var first = SyntheticAfternoon(factor: 1.25, windFactor: wind)
            var second = SyntheticAfternoon()
            second.start = first.start + Self.day
            first.stretch = 7_200
            let samples = first.samples() + second.samples()
            let report = CalibrationLearner().learn(samples)
            try #require(report.roundings.count < 5 && report.calibration.logSteps.count == 1, "\(report.roundings)")
            let step = report.calibration.logSteps[0]
            let expected = wind == 1 ? 1 : step.ratio
            #expect(step.windTold && abs(step.windRatio - expected) < 1e-12, "wind read 1/\(wind): \(step)")
        }
    }

    @Test func noStepWhenTheLogReadsAlikeOrNearlySoEveryDay() {
        for (first, second) in [(1.08, 1.08), (1.03, 1.0)] {
            let samples = Self.twoDays(SyntheticAfternoon(factor: first), SyntheticAfternoon(factor: second))
            let report = CalibrationLearner().learn(samples)
            #expect(report.calibration.logSteps.isEmpty, "\(first), \(second): \(report.calibration.logSteps)")
        }
    }

    @Test func aStepWithinOneDayIsNotSplit() {
        // The log reads 25 % low in the first hours of one afternoon, then right: no day's boundary to split at.
        var samples = SyntheticAfternoon(stretch: 960).samples()
        for index in samples.indices where index < samples.count / 2 { samples[index].stw /= 1.25 }
        #expect(CalibrationLearner().learn(samples).calibration.logSteps.isEmpty)
    }

    /// The first afternoon whole, the second's first `seconds` only: a handful of manoeuvres after a change.
    static func aMorningAfter(_ first: SyntheticAfternoon, _ second: SyntheticAfternoon, seconds: Double)
        -> [SailingSample]
    {
        let samples = twoDays(first, second)
        return samples.filter { $0.time < samples[0].time + day + seconds }
    }

    @Test func aLogCleanedThisMorningIsSeenAfterAHandfulOfManoeuvres() throws {
        let samples = Self.aMorningAfter(SyntheticAfternoon(factor: 1.25), SyntheticAfternoon(), seconds: 1_700)
        let report = CalibrationLearner().learn(samples)
        let newest = report.manoeuvres.filter { $0.time > samples[0].time + Self.day }.count
        let steps = report.calibration.logSteps
        try #require(steps.count == 1, "\(steps)")
        #expect(steps[0].provisional && (5..<8).contains(steps[0].countAfter), "\(newest) manoeuvres: \(steps[0])")
        #expect(abs(steps[0].ratio - 1.25) < 0.05 && steps[0].ratioError > 0, "\(steps[0])")
        #expect(steps[0].time == samples[0].time + Self.day, "\(steps[0].time - samples[0].time)")
        // The log as it reads this morning, applied however sure (the first afternoon's 1.25 is surely wrong now).
        #expect(abs(report.speedFactor.value - 1) < 0.03 && report.speedFactor.isApplied, "\(report.speedFactor)")
        #expect(report.calibration.speedFactor == report.speedFactor.value)
        // Its error counts the morning's few manoeuvres: provisional unless within the sure bound.
        let sure = report.speedFactor.uncertainty <= CalibrationLearner().sureFactor
        #expect(report.speedFactor.isSure == sure, "\(report.speedFactor)")
        #expect(report.speedFactor.uncertainty > Double(steps[0].ratioError) * 0.9, "\(report.speedFactor)")
    }

    @Test func noProvisionalStepWhenTheMorningReadsAsBefore() {
        let samples = Self.aMorningAfter(
            SyntheticAfternoon(factor: 1.25), SyntheticAfternoon(factor: 1.25), seconds: 1_700)
        let report = CalibrationLearner().learn(samples)
        #expect(report.calibration.logSteps.isEmpty, "\(report.calibration.logSteps)")
        #expect(abs(report.speedFactor.value - 1.25) < 0.02 && report.speedFactor.isSure, "\(report.speedFactor)")
        // Four manoeuvres are too few to say anything of the morning: no step either.
        let four = Self.aMorningAfter(SyntheticAfternoon(factor: 1.25), SyntheticAfternoon(), seconds: 1_000)
        let few = CalibrationLearner().learn(four)
        #expect(few.calibration.logSteps.isEmpty, "\(few.calibration.logSteps)")
    }

    @Test func aSampleBeforeAStepIsScaledByItAndEveryLaterOne() {
        var calibration = SailingCalibration(speedFactor: 1.1)
        calibration.logSteps = [
            LogStep(time: 100, ratio: 1.2, factorBefore: 1.32, factorAfter: 1.1, countBefore: 8, countAfter: 8),
            LogStep(time: 200, ratio: 0.5, factorBefore: 0.55, factorAfter: 1.1, countBefore: 8, countAfter: 8),
        ]
        calibration.logSteps[1].windRatio = 0.5
        func sample(_ time: Double) -> SailingSample {
            SailingSample(time: time, awa: 40, aws: 10, stw: 5, heading: 0, cog: nil, sog: nil)
        }
        #expect(abs(calibration.speed(of: sample(50)) - 5 * 1.1 * 1.2 * 0.5) < 1e-12)
        #expect(abs(calibration.speed(of: sample(150)) - 5 * 1.1 * 0.5) < 1e-12)
        #expect(abs(calibration.speed(of: sample(200)) - 5 * 1.1) < 1e-12)
        #expect(abs(calibration.windSpeed(of: sample(50)) - 5) < 1e-12)
        #expect(abs(calibration.windSpeed(of: sample(250)) - 10) < 1e-12)
    }

    @Test func aCalibrationAtATimeFoldsTheStepsAfterIt() {
        func step(_ time: Double, _ ratio: Double, wind: Double) -> LogStep {
            var step = LogStep(
                time: time, ratio: ratio, factorBefore: ratio, factorAfter: 1, countBefore: 9, countAfter: 9)
            step.windRatio = wind
            return step
        }
        var calibration = SailingCalibration(speedFactor: 1.02, awsFactor: 1.1)
        calibration.logSteps = [step(100, 0.8, wind: 0.8), step(200, 1.2, wind: 1)]
        for (time, speed, wind) in [(50.0, 1.02 * 0.8 * 1.2, 1.1 * 0.8), (150, 1.02 * 1.2, 1.1), (250, 1.02, 1.1)] {
            let dated = calibration.at(time)
            #expect(abs(dated.speedFactor - speed) < 1e-12 && abs(dated.awsFactor - wind) < 1e-12, "\(time): \(dated)")
            #expect(dated.logSteps.isEmpty)
        }
        #expect(calibration.at(nil).speedFactor == 1.02 && calibration.at(nil).logSteps.isEmpty)
        // Composed: the steps of both, in time order (a reading from before both is scaled by each).
        var residual = SailingCalibration()
        residual.logSteps = [step(150, 1.1, wind: 1)]
        #expect(calibration.then(residual).logSteps.map(\.time) == [100, 150, 200])
        #expect(abs(calibration.then(residual).at(50).speedFactor - 1.02 * 0.8 * 1.1 * 1.2) < 1e-12)
    }

    @Test func aCompassCardDoesNotMoveTheStep() throws {
        // The second afternoon sailed on headings a quarter round from the first's (the wind backed 90°), the compass
        // reading h + 8° cos 2h on both: the water's track each manoeuvre's factor comes from turns by heading, one
        // way on the first afternoon and the other on the second. Under the card's correction the step is the log's.
        let card = { (h: Double) in 8 * cos(2 * h * Double.pi / 180) }
        let first = Self.twoDays(SyntheticAfternoon(factor: 1.25), SyntheticAfternoon())
        let samples = first.map { sample in
            var sample = sample
            if sample.time >= first[0].time + Self.day {
                sample.heading = Angle.direction(sample.heading - 90)
                sample.cog = sample.cog.map { Angle.direction($0 - 90) }
            }
            sample.heading = Angle.direction(sample.heading + card(sample.heading))
            return sample
        }
        let learner = CalibrationLearner()
        let manoeuvres = learner.finder.manoeuvres(in: samples) + learner.finder.roundings(in: samples)
        let under = learner.factorSteps(
            samples, manoeuvres, under: SailingCalibration(deviation: DeviationCurve([0, 0, 0, 0, -8])))
        let plain = learner.factorSteps(samples, manoeuvres)
        try #require(under.count == 1, "\(under)")
        #expect(abs(under[0].ratio - 1.25) < 0.02, "\(under[0].ratio) under the card, \(plain.map(\.ratio)) without")
        #expect(plain.count != 1 || abs(plain[0].ratio - 1.25) > 0.02, "\(plain.map(\.ratio)) without the card")
    }
}
