import Marine
import Testing

/// The calibration learnt without the newest day, judged on it; and `auto` not applying what it says is worse.
@Suite struct NewestDaysCheckTests {
    static let day = 86_400.0

    /// Two afternoons a day apart, the masthead unit reading `first` wider on the first and `second` on the second.
    static func twoDays(first: Double, second: Double) -> [SailingSample] {
        SyntheticAfternoon(upwash: first).samples()
            + SyntheticAfternoon(upwash: second, start: SyntheticAfternoon().start + day).samples()
    }

    /// The unit refitted overnight: the upwash learnt on the first day, applied to the second, makes its tacks jump
    /// where they did not.
    @Test func aUnitRefittedOvernightMakesTheNewestDayWorse() throws {
        let report = CalibrationLearner().learn(Self.twoDays(first: 4, second: 0))
        let check = try #require(report.newestDays)
        #expect(check.days == 1 && check.tacks >= 20, "\(check)")
        #expect(check.from == SyntheticAfternoon().start + Self.day, "\(check)")
        #expect(check.learntFrom == 14_400)
        #expect(check.isWorse && check.jumpCalibrated > check.jumpUncalibrated + 4, "\(check)")
        #expect(check.says == "worse")
        let why = try #require(AutoCalibration().refusal(check))
        #expect(
            why.hasPrefix("learnt without the newest day, it made their \(check.tacks) tacks' true wind jump"), "\(why)"
        )
    }

    /// The same unit both days: what the first day teaches takes the second day's tack bias out.
    @Test func theSameInstrumentsOnTheNewestDayAreNotWorse() throws {
        let check = try #require(CalibrationLearner().learn(Self.twoDays(first: 4, second: 4)).newestDays)
        #expect(!check.isWorse && check.jumpCalibrated < check.jumpUncalibrated - 4, "\(check)")
        #expect(abs(check.biasCalibrated) < 1 && abs(check.biasUncalibrated) > 4, "\(check)")
        #expect(AutoCalibration().refusal(check) == nil)
    }

    /// 29 June 2014 on Irene, learnt from the days before it: the jumps a little smaller, the bias pushed out past
    /// the bound (every tack one way). The first check judged by the jumps alone and said not worse.
    @Test func aBiasPushedBeyondTheBoundIsWorseThoughTheJumpsShrink() throws {
        let june = NewestDaysCheck(
            from: 0, days: 1, tacks: 14, learntFrom: 30_000, uncalibrated: (1.2, 7.2), calibrated: (4.4, 5.4))
        #expect(june.isWorse && !june.jumpsMore && june.biasesMore && june.says == "worse")
        let why = try #require(AutoCalibration().refusal(june))
        #expect(
            why == "learnt without the newest day, it left their 14 tacks' bias at +4.4° where it was +1.2° without it")
        func check(_ uncalibrated: (Double, Double), _ calibrated: (Double, Double)) -> NewestDaysCheck {
            NewestDaysCheck(
                from: 0, days: 2, tacks: 9, learntFrom: 1, uncalibrated: uncalibrated, calibrated: calibrated)
        }
        #expect(!check((1.0, 6.0), (-1.9, 5.9)).isWorse, "within ±2°: not held against it")
        #expect(!check((-5.0, 6.0), (-3.5, 5.9)).isWorse, "beyond the bound but smaller than without it")
        #expect(check((-5.0, 6.0), (-5.5, 5.9)).isWorse, "beyond the bound and larger")
        #expect(check((0.0, 6.0), (0.0, 6.1)).jumpsMore, "the jumps larger, whatever the bias")
    }

    @Test func oneDayHasNothingToCheckItAgainst() {
        #expect(CalibrationLearner().learn(SyntheticAfternoon(upwash: 4).samples()).newestDays == nil)
        #expect(AutoCalibration().refusal(nil) == nil)
    }

    /// The check is the learner's own: the learning it runs without the newest days carries none of its own.
    @Test func aLearnerAskedNotToCheckDoesNot() {
        var learner = CalibrationLearner()
        learner.checksNewestDays = false
        #expect(learner.learn(Self.twoDays(first: 4, second: 0)).newestDays == nil)
    }
}
