import Marine
import Platform
import TestSupport
import Testing

@testable import Gateway

/// The calibration file as a sailor may write it by hand: whole numbers are numbers, the upwash by wind speed reads
/// back, and what cannot be true is refused.
@Suite struct CalibrationFileTests {
    func load(_ text: String) throws(ConfigurationFile.Error) -> SailingCalibration {
        let path = temporaryFolder("calibration-file") + "/calibration.toml"
        try? POSIX.writeFileAtomically(path, Array(text.utf8))
        return try CalibrationFile.load(path)
    }

    @Test func wholeNumbersAreNumbers() throws {
        let calibration = try load(
            "[sailing]\nawa_offset = -4\nspeed_factor = 1\ndeviation = [0, 4, 0, 0, 2]\nupwash_tws = [6, 12]\n"
                + "upwash_upwind_by_tws = [-2, 1.5]\nupwash_downwind_by_tws = [0, 0]\n")
        #expect(calibration.awaOffset == -4 && calibration.speedFactor == 1)
        #expect(calibration.deviation.coefficients == [0, 4, 0, 0, 2])
        #expect(calibration.upwashByWind.windSpeeds == [6, 12] && calibration.upwashByWind.upwind == [-2, 1.5])
    }

    @Test func aTableThatCannotBeTrueIsRefused() {
        for table in [
            "upwash_tws = [12, 6]\nupwash_upwind_by_tws = [0, 0]\nupwash_downwind_by_tws = [0, 0]\n",
            "upwash_tws = [6, 12]\nupwash_upwind_by_tws = [0]\nupwash_downwind_by_tws = [0, 0]\n",
            "upwash_tws = [6, 12]\nupwash_upwind_by_tws = [0, 25]\nupwash_downwind_by_tws = [0, 0]\n",
            "upwash_tws = [6, 12]\nupwash_upwind_by_tws = [0, 0]\nupwash_downwind_by_tws = [0, 0]\n"
                + "upwash_reach_by_tws = [-3]\n",
            "upwash_tws = [6, 12]\nupwash_upwind_by_tws = [0, 0]\nupwash_downwind_by_tws = [0, 0]\n"
                + "upwash_reach_by_tws = [-3, 12]\n",
        ] {
            #expect(throws: ConfigurationFile.Error.self) { try load("[sailing]\n" + table) }
        }
        #expect(throws: ConfigurationFile.Error.self) { try load("[sailing]\naws_factor = 2\n") }
        #expect(throws: ConfigurationFile.Error.self) { try load("[sailing]\nupwash_reach = 25\n") }
        #expect(throws: ConfigurationFile.Error.self) { try load("[sailing]\nspeed_side = 0.2\n") }
    }

    /// Found by fuzzing the file (2026-12-01): `nan` terms of the card were read as 0 and the file applied.
    @Test("nan, inf or a string in a list is refused, never read as 0 nor passed over")
    func listsOfNumbersOnly() {
        let upwash = "upwash_upwind_by_tws = [0, 0]\nupwash_downwind_by_tws = [0, 0]\n"
        let steps = "log_steps = [1402505959, 1403865986]\nlog_step_wind_ratios = [0.8, 1.2]\n"
        for table in [
            "deviation = [nan, nan, nan, nan, nan]\n", "deviation = [1, 2, inf, 0, 0]\n",
            "deviation = [1, \"2\", 0, 0, 0, 0]\n", "upwash_tws = [6, nan]\n" + upwash,
            "upwash_tws = [6, \"9\", 12]\n" + upwash,
            "upwash_tws = [6, 12]\nupwash_upwind_by_tws = [0, -inf]\n"
                + "upwash_downwind_by_tws = [0, 0]\n",
            steps + "log_step_ratios = [0.8, nan]\n", steps + "log_step_ratios = [0.8, \"x\", 1.2]\n",
        ] {
            #expect(throws: ConfigurationFile.Error.self, "\(table)") { try load("[sailing]\n" + table) }
        }
        #expect((try? load("[sailing]\n" + steps + "log_step_ratios = [0.8, 1.2]\n"))?.logSteps.count == 2)
    }

    @Test func theLogBySideReadsBackAsWritten() throws {
        #expect(try load("[sailing]\nspeed_side = -0.025\n").speedSide == -0.025)
        var report = CalibrationReport(samples: 100, manoeuvres: [], faults: [])
        report.speedSide = LearntValue(value: -0.0312, uncertainty: 0.003, count: 20, status: .sure)
        report.calibration.speedSide = -0.0312
        #expect(try load(CalibrationFile.text(report, from: "a test")).speedSide == -0.0312)
        report.speedSide.status = .unsure
        report.calibration.speedSide = 0
        let unsure = CalibrationFile.text(report, from: "a test")
        let reread = try load(unsure)
        #expect(unsure.contains("# speed_side = -0.0312") && reread.speedSide == 0, "\(unsure)")
    }

    @Test func theReachsUpwashReadsBackAsWritten() throws {
        #expect(try load("[sailing]\nupwash_reach = -3.5\n").upwashReach == -3.5)
        // The file a report writes: a sure reach as a value, one not sure as a comment that applies nothing.
        var report = CalibrationReport(samples: 100, manoeuvres: [], faults: [])
        report.upwashReach = LearntValue(value: -2.25, uncertainty: 0.4, count: 20, status: .sure)
        report.calibration.upwashReach = -2.25
        #expect(try load(CalibrationFile.text(report, from: "a test")).upwashReach == -2.25)
        report.upwashReach.status = .unsure
        report.calibration.upwashReach = 0
        let unsure = CalibrationFile.text(report, from: "a test")
        let reread = try load(unsure)
        #expect(unsure.contains("# upwash_reach = -2.25") && reread.upwashReach == 0, "\(unsure)")
    }

    @Test func theReachByWindSpeedReadsBackAsWritten() throws {
        var report = CalibrationReport(samples: 100, manoeuvres: [], faults: [])
        report.calibration.upwashByWind = UpwashByWind(
            windSpeeds: [10.5, 19], upwind: [0, 0], downwind: [0, 0], reach: [-6, -2.25])
        let text = CalibrationFile.text(report, from: "a test")
        #expect(text.contains("upwash_reach_by_tws = [-6.00, -2.25]"), "\(text)")
        let reread = try load(text)
        #expect(reread.upwashByWind.reach == [-6, -2.25] && reread.upwashByWind.windSpeeds == [10.5, 19])
        // A table without a reaching row reads as one: the single reaching value at every wind speed.
        let plain = try load(
            "[sailing]\nupwash_reach = -1\nupwash_tws = [6, 12]\nupwash_upwind_by_tws = [0, 0]\n"
                + "upwash_downwind_by_tws = [0, 0]\n")
        #expect(plain.upwashByWind.reach.isEmpty && plain.upwash(9, .reach) == -1)
    }

    @Test func theLogsStepsReadBackAsWritten() throws {
        var report = CalibrationReport(samples: 100, manoeuvres: [], faults: [])
        var cleaned = LogStep(
            time: 1_403_865_986, ratio: 1.1995, factorBefore: 1.23, factorAfter: 1.026, countBefore: 49, countAfter: 57)
        cleaned.windRatio = 1.1995
        let older = LogStep(
            time: 1_402_505_959, ratio: 0.7925, factorBefore: 0.975, factorAfter: 1.23, countBefore: 63, countAfter: 49)
        // A log without dates: its step has no calendar time, and is not written.
        let undated = LogStep(
            time: 86_400, ratio: 1.1, factorBefore: 1.1, factorAfter: 1, countBefore: 9, countAfter: 9)
        report.calibration.logSteps = [undated, older, cleaned]
        let text = CalibrationFile.text(report, from: "a test")
        #expect(
            text.contains("log_steps = [1402505959, 1403865986]") && text.contains("(2014-06-11, 2014-06-27)"),
            "\(text)")
        let steps = try load(text).logSteps
        #expect(steps.map(\.time) == [1_402_505_959, 1_403_865_986], "\(steps)")
        #expect(steps.map(\.ratio) == [0.7925, 1.1995] && steps.map(\.windRatio) == [1, 1.1995], "\(steps)")
        // Steps the reader would refuse (a reading before both scaled by 3.24) are not written: said in a comment.
        var far = older
        far.time = 1_403_000_000
        far.ratio = 1.8
        report.calibration.logSteps = [far, cleaned]
        report.calibration.logSteps[1].ratio = 1.8
        let refused = CalibrationFile.text(report, from: "a test")
        #expect(!refused.contains("\nlog_steps") && refused.contains("# log_steps: not written"), "\(refused)")
        #expect(try load(refused).logSteps.isEmpty)
        // Without steps, no line.
        report.calibration.logSteps = []
        #expect(!CalibrationFile.text(report, from: "a test").contains("log_step"))
    }

    @Test func stepsThatCannotBeTrueAreRefused() throws {
        // A fortnight read a fifth low between two clean stretches: each step's product with the next's is 1.
        let fortnight = try load(
            "[sailing]\nlog_steps = [1402505959, 1403865986]\nlog_step_ratios = [0.8, 1.25]\n"
                + "log_step_wind_ratios = [0.8, 1.25]\n")
        #expect(fortnight.logSteps.count == 2 && fortnight.at(1_400_000_000).speedFactor == 1)
        for steps in [
            "log_steps = [1403865986, 1402505959]\nlog_step_ratios = [1, 1]\nlog_step_wind_ratios = [1, 1]\n",
            "log_steps = [1402505959]\nlog_step_ratios = [3]\nlog_step_wind_ratios = [1]\n",
            "log_steps = [1402505959]\nlog_step_ratios = [1.2]\nlog_step_wind_ratios = [0.1]\n",
            "log_steps = [1402505959, 1403865986]\nlog_step_ratios = [1.2]\nlog_step_wind_ratios = [1, 1]\n",
            "log_steps = [1402505959]\nlog_step_ratios = [1.2]\n",
            "log_steps = [86400]\nlog_step_ratios = [1.2]\nlog_step_wind_ratios = [1]\n",
            "log_steps = [\"2014-06-11\"]\nlog_step_ratios = [1.2]\nlog_step_wind_ratios = [1]\n",
            "log_steps = []\nlog_step_ratios = []\nlog_step_wind_ratios = []\n",
            // Each within 0.5 to 2, but a reading before both scaled by 3.24 (the log's) or 0.36 (the wind's).
            "log_steps = [1402505959, 1403865986]\nlog_step_ratios = [1.8, 1.8]\nlog_step_wind_ratios = [1, 1]\n",
            "log_steps = [1402505959, 1403865986]\nlog_step_ratios = [1, 1]\nlog_step_wind_ratios = [0.6, 0.6]\n",
        ] {
            #expect(throws: ConfigurationFile.Error.self, "\(steps)") { try load("[sailing]\n" + steps) }
        }
    }
}
