import Marine
import Testing

@testable import Gateway

/// A step in the log's reading, as the report says it: which way, how much, since when, and the wind's part.
@Suite struct LogStepWordsTests {
    // 2014-06-27 10:46:26 UTC.
    static let time = 1_403_865_986.0

    @Test func aFouledPaddleWheelIsSaidAsTheLogAlone() {
        var step = LogStep(
            time: Self.time, ratio: 0.8, factorBefore: 1, factorAfter: 1.25, countBefore: 9, countAfter: 12)
        step.windTold = true
        let words = CalibrationReportWords.words(step)
        #expect(words.contains("the log reads 20 % less since 2014-06-27 than before"), "\(words)")
        #expect(words.contains("1.000 from 9 manoeuvres before, 1.250 from 12 since"), "\(words)")
        #expect(words.contains("paddle wheel") && !words.contains("wind speed"), "\(words)")
    }

    @Test func theWindSpeedSteppingWithItIsSaidAndWhatCannotBeToldIsSaidSo() {
        let step = LogStep(
            time: Self.time, ratio: 1.2, factorBefore: 1.23, factorAfter: 1.025, countBefore: 49,
            countAfter: 57)
        var both = step
        both.windRatio = 1.2
        both.windTold = true
        let words = CalibrationReportWords.words(both)
        #expect(words.contains("the log reads 20 % more and the wind speed 20 % more since 2014-06-27"), "\(words)")
        #expect(words.contains("speed setting") && !words.contains("can tell"), "\(words)")
        #expect(CalibrationReportWords.words(step).contains("neither the roundings nor the tacks can tell"))
    }

    /// A step whose wind part is not told is taken to have stepped with the log (its wind ratio the log's, or, before
    /// a later step whose part was told, the ratio that makes): said as what is assumed, not as what was seen.
    @Test func aWindRatioNotToldIsSaidAsAssumed() {
        var step = LogStep(
            time: Self.time, ratio: 1.25, factorBefore: 1.3, factorAfter: 1.04, countBefore: 20, countAfter: 30)
        step.windRatio = 1.25
        step.windTold = false
        let words = CalibrationReportWords.words(step)
        #expect(!words.contains("and the wind speed 25 % more"), "\(words)")
        #expect(words.contains("the paddle wheel, or the instruments' speed setting?"), "\(words)")
        #expect(words.contains("it is taken to have, 25 % more, so that the true wind angle is not turned"), "\(words)")
        step.windRatio = 0.84
        #expect(
            CalibrationReportWords.words(step).contains(
                "taken to have, 16 % less than the stretch after it, as the steps after it were told"))
    }

    @Test func aStepSeenThisMorningIsSaidAsProvisionalAndItsFactorIsWrittenApplied() {
        var step = LogStep(
            time: Self.time, ratio: 1.2, factorBefore: 1.23, factorAfter: 1.025, countBefore: 49, countAfter: 6)
        step.provisional = true
        let words = CalibrationReportWords.words(step)
        #expect(words.contains("20 % more on the newest day, 2014-06-27, than before"), "\(words)")
        #expect(words.contains("1.025 from 6 since") && words.contains("provisional"), "\(words)")
        // The log's factor since, not sure from six manoeuvres, is written applied all the same.
        var report = CalibrationReport(samples: 3_600, manoeuvres: [], faults: [])
        report.speedFactor = LearntValue(
            value: 1.031, uncertainty: 0.024, count: 120, status: .provisional("the log changed on the newest day"))
        report.calibration.speedFactor = 1.031
        report.calibration.logSteps = [step]
        let file = CalibrationFile.text(report, from: "a test")
        #expect(file.contains("\nspeed_factor = 1.0310  # ± 0.0240 from 120, provisional: "), "\(file)")
        #expect(report.speedFactor.isApplied && !report.speedFactor.isSure)
    }
}
