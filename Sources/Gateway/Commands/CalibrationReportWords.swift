import Marine
import SignalK

/// The report in words: each value, how sure, from what; the tack bias with and without the calibration.
enum CalibrationReportWords {
    static func text(_ report: CalibrationReport, _ samples: [SailingSample], written: String?) -> String {
        let tacks = report.manoeuvres.filter { $0.kind == .tack }
        let gybes = report.manoeuvres.filter { $0.kind == .gybe }
        var lines = [
            "calibration: \(report.samples) s of sailing, \(tacks.count) tacks and \(gybes.count) gybes with steady "
                + "sailing either side"
        ]
        for fault in report.faults { lines.append("sensor fault: \(fault): nothing learnt") }
        for (name, learnt, unit, decimals) in [
            ("awa_offset", report.awaOffset, "°", 2), ("upwash_upwind", report.upwashUpwind, "°", 2),
            ("upwash_downwind", report.upwashDownwind, "°", 2), ("upwash_reach", report.upwashReach, "°", 2),
            ("speed_factor", report.speedFactor, "", 4), ("speed_side", report.speedSide, "", 4),
            ("aws_factor", report.awsFactor, "", 3),
        ] {
            let spread =
                learnt.uncertainty.isFinite ? " ± " + FixedDecimal.text(learnt.uncertainty, decimals: decimals) : ""
            lines.append(
                "  \(name): \(FixedDecimal.text(learnt.value, decimals: decimals))\(unit)\(spread) from \(learnt.count): "
                    + learnt.words)
        }
        for step in report.calibration.logSteps { lines.append(words(step)) }
        for band in report.upwashBands {
            let words = [("upwind", band.upwind), ("downwind", band.downwind), ("reaching", band.reach)].filter {
                $0.1.count > 0
            }.map {
                "\($0.0) \(FixedDecimal.text($0.1.value, decimals: 2))°"
                    + ($0.1.uncertainty.isFinite ? " ± \(FixedDecimal.text($0.1.uncertainty, decimals: 2))" : "")
                    + " from \($0.1.count): \($0.1.words)"
            }
            lines.append(
                "  upwash at \(FixedDecimal.text(band.windSpeed, decimals: 1)) kn (\(Int(band.lower)) to "
                    + "\(Int(band.upper)) kn): " + words.joined(separator: "; "))
        }
        if !report.calibration.upwashByWind.isEmpty {
            lines.append(
                "  upwash applied by wind speed"
                    + (report.calibration.upwashByWind.reach.isEmpty ? "" : ", reaching too"))
        }
        lines += CalibrationDeviationReport.lines(report.deviation)
        lines += CalibrationDeviationReport.checkLine(report, samples)
        if !report.roundings.isEmpty {
            lines.append(
                "  bear-aways and round-ups: \(report.roundings.count), true wind speed downwind less upwind "
                    + "\(FixedDecimal.text(CalibrationReport.windSpeedBias(samples, report.roundings, .init()), decimals: 2)) kn "
                    + "uncalibrated, "
                    + "\(FixedDecimal.text(CalibrationReport.windSpeedBias(samples, report.roundings, report.calibration), decimals: 2)) kn calibrated"
            )
        }
        for (label, set) in [("tacks", tacks), ("gybes", gybes)] where !set.isEmpty {
            let raw = CalibrationReport.bias(samples, set, SailingCalibration())
            let calibrated = CalibrationReport.bias(samples, set, report.calibration)
            // The bias's error with the days' own spread: a day's wind has habits of its own.
            let error = RobustStatistics.medianError(
                CalibrationReport.signedJumps(samples, set, SailingCalibration()), days: Manoeuvre.days(set))
            lines.append(
                "  \(label): bias \(FixedDecimal.text(raw.bias, decimals: 1))° uncalibrated (± "
                    + "\(FixedDecimal.text(error, decimals: 1))), \(FixedDecimal.text(calibrated.bias, decimals: 1))° "
                    + "calibrated; median jump \(FixedDecimal.text(raw.size, decimals: 1))° and "
                    + "\(FixedDecimal.text(calibrated.size, decimals: 1))°")
            let own = CalibrationReport.instrumentBias(samples, set)
            if own.count > 0 {
                lines.append(
                    "  \(label): the instruments' own true wind (MWV T, \(own.count) of them): bias "
                        + "\(FixedDecimal.text(own.bias, decimals: 1))°, median jump \(FixedDecimal.text(own.size, decimals: 1))°"
                )
            }
        }
        if let check = report.newestDays { lines.append(words(check)) }
        if report.calibration.isIdentity && report.faults.isEmpty {
            lines.append("not enough data: no value is sure yet (sail more tacks and gybes, steady either side)")
        }
        if let written { lines.append("written: \(written)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The check on the newest days, said as what it means for applying.
    static func words(_ check: NewestDaysCheck) -> String {
        let since = SignalKTime.text(unixTime: check.from).prefix(10)
        let days = check.days == 1 ? "the newest day (\(since))" : "the newest \(check.days) days (since \(since))"
        return
            "  checked on \(days), learnt without \(check.days == 1 ? "it" : "them"): \(check.tacks) tacks, median jump "
            + "\(FixedDecimal.text(check.jumpUncalibrated, decimals: 1))° uncalibrated and "
            + "\(FixedDecimal.text(check.jumpCalibrated, decimals: 1))° calibrated (bias "
            + "\(FixedDecimal.text(check.biasUncalibrated, decimals: 1))° and "
            + "\(FixedDecimal.text(check.biasCalibrated, decimals: 1))°): "
            + (check.isWorse
                ? "worse on days it had not seen; `auto` does not apply it" : "not worse on days it had not seen")
    }

    /// A step in the log's reading, said as a sailor would look for it.
    static func words(_ step: LogStep) -> String {
        func change(_ ratio: Double) -> String {
            "\(Int((abs(ratio - 1) * 100).rounded())) % \(ratio > 1 ? "more" : "less")"
        }
        // A wind part not told is said apart: it is taken to have stepped with the log (the triangle's shape kept, so
        // the true wind angle is not turned by a guess), which is an assumption, not what was seen.
        let wind = step.windTold && step.windRatio != 1 ? " and the wind speed \(change(step.windRatio))" : ""
        let since = SignalKTime.text(unixTime: step.time).prefix(10)
        let when = step.provisional ? "on the newest day, \(since)," : "since \(since)"
        let guess =
            abs(step.windRatio - step.ratio) < 1e-9
            ? change(step.windRatio)
            : "\(change(step.windRatio)) than the stretch after it, as the steps after it were told"
        return "  the log reads \(change(step.ratio))\(wind) \(when) "
            + "than before (the log's factor \(FixedDecimal.text(step.factorBefore, decimals: 3)) from "
            + "\(step.countBefore) manoeuvres before, \(FixedDecimal.text(step.factorAfter, decimals: 3)) from "
            + "\(step.countAfter) since): "
            + (!step.windTold
                ? "the paddle wheel, or the instruments' speed setting?"
                : wind.isEmpty
                    ? "the paddle wheel fouled, cleaned or refitted?" : "the instruments' speed setting changed?")
            + " The readings before are scaled to it"
            + (step.windTold
                ? ""
                : " (whether the wind speed stepped with it, neither the roundings nor the tacks can tell: it is taken "
                    + "to have, \(guess), so that the true wind angle is not turned by a guess)")
            + (step.provisional
                ? ". Seen from fewer manoeuvres than a day's sailing gives: the log's factor since is provisional" : "")
    }
}
