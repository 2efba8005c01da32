import Marine
import Testing

@testable import Gateway

/// The check on the newest days in the learner's report: written into the JSON the panel reads, read back from it by
/// the service deciding whether to apply by itself, and said in words.
@Suite struct NewestDaysReportTests {
    static let check = NewestDaysCheck(
        from: 1_404_000_000, days: 2, tacks: 9, learntFrom: 70_000, uncalibrated: (1.2, 6.1),
        calibrated: (-4.4, 8.3))

    @Test func theJSONCarriesItAndTheServiceReadsItBack() throws {
        var report = CalibrationReport(samples: 0, manoeuvres: [], faults: [])
        report.newestDays = Self.check
        let text = CalibrationReportJSON.text(report, [])
        #expect(text.contains(#""newest_days":{"from":"2014-06-29T00:00:00.000Z","days":2,"tacks":9,"#), "\(text)")
        let read = try #require(CalibrationReportJSON.newestDays(text))
        #expect(read == Self.check)
        #expect(read.isWorse)
    }

    @Test func noCheckIsNullAndReadsBackAsNone() {
        let text = CalibrationReportJSON.text(CalibrationReport(samples: 0, manoeuvres: [], faults: []), [])
        #expect(text.contains(#""newest_days":null"#), "\(text)")
        #expect(CalibrationReportJSON.newestDays(text) == nil)
        #expect(CalibrationReportJSON.newestDays("not a report") == nil)
        #expect(CalibrationReportJSON.newestDays(#"{"newest_days":{"from":"2014-06-29T00:00:00.000Z""#) == nil)
    }

    @Test func theWordsSayWhatItMeansForApplying() {
        let words = CalibrationReportWords.words(Self.check)
        #expect(
            words.contains("checked on the newest 2 days (since 2014-06-29), learnt without them: 9 tacks"), "\(words)")
        #expect(words.contains("median jump 6.1° uncalibrated and 8.3° calibrated"), "\(words)")
        #expect(words.hasSuffix("worse on days it had not seen; `auto` does not apply it"), "\(words)")
    }
}
