import Marine
import SignalK

/// The report as JSON: `awa_offset`, `upwash_upwind`, `upwash_downwind`, `upwash_reach`, `speed_factor`,
/// `speed_side` (each `value`, `uncertainty`, `count`, `status`), the steps in the log's reading (`log_steps`), the
/// tack and gybe bias, the faults, and every manoeuvre used with its true wind direction before and after, without and with the calibration.
public enum CalibrationReportJSON {
    static func text(_ report: CalibrationReport, _ samples: [SailingSample], polar: LearntPolar? = nil) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.value("samples", report.samples)
        if let polar { writeCells(polar, into: &out) }
        for (name, learnt) in [
            ("awa_offset", report.awaOffset), ("upwash_upwind", report.upwashUpwind),
            ("upwash_downwind", report.upwashDownwind), ("upwash_reach", report.upwashReach),
            ("speed_factor", report.speedFactor), ("speed_side", report.speedSide),
            ("aws_factor", report.awsFactor),
        ] {
            out.beginObject(name)
            out.value("value", learnt.value)
            out.value("uncertainty", learnt.uncertainty.isFinite ? learnt.uncertainty : nil)
            out.value("count", learnt.count)
            out.value("status", learnt.words)
            out.value("applied", learnt.isApplied)
            out.endObject()
        }
        writeLogSteps(report.calibration.logSteps, into: &out)
        out.beginArray("upwash_by_tws")
        for band in report.upwashBands {
            out.beginObject()
            out.value("tws", band.windSpeed)
            out.value("from", band.lower)
            out.value("to", band.upper)
            for (name, learnt) in [("upwind", band.upwind), ("downwind", band.downwind), ("reach", band.reach)] {
                out.beginObject(name)
                out.value("value", learnt.value)
                out.value("uncertainty", learnt.uncertainty.isFinite ? learnt.uncertainty : nil)
                out.value("count", learnt.count)
                out.value("status", learnt.words)
                out.endObject()
            }
            out.endObject()
        }
        out.endArray()
        out.value("upwash_by_tws_applied", !report.calibration.upwashByWind.isEmpty)
        out.value("upwash_reach_by_tws_applied", !report.calibration.upwashByWind.reach.isEmpty)
        CalibrationDeviationReport.write(report.deviation, into: &out)
        CalibrationDeviationReport.writeChecks(report, samples, into: &out)
        for (label, kind) in [("tacks", Manoeuvre.Kind.tack), ("gybes", .gybe)] {
            let set = report.manoeuvres.filter { $0.kind == kind }
            let raw = CalibrationReport.bias(samples, set, SailingCalibration())
            let calibrated = CalibrationReport.bias(samples, set, report.calibration)
            out.beginObject(label)
            out.value("count", set.count)
            out.value("bias_uncalibrated", raw.bias.isFinite ? raw.bias : nil)
            out.value("bias_calibrated", calibrated.bias.isFinite ? calibrated.bias : nil)
            out.value("median_jump_uncalibrated", raw.size.isFinite ? raw.size : nil)
            out.value("median_jump_calibrated", calibrated.size.isFinite ? calibrated.size : nil)
            // The boat's own instruments' true wind (MWV T), over the manoeuvres whose windows carry it.
            let own = CalibrationReport.instrumentBias(samples, set)
            out.value("count_instruments", own.count)
            out.value("bias_instruments", own.bias.isFinite ? own.bias : nil)
            out.value("median_jump_instruments", own.size.isFinite ? own.size : nil)
            out.endObject()
        }
        writeNewestDays(report.newestDays, into: &out)
        out.beginObject("roundings")
        out.value("count", report.roundings.count)
        for (suffix, calibration) in [("uncalibrated", SailingCalibration()), ("calibrated", report.calibration)] {
            let bias = CalibrationReport.windSpeedBias(samples, report.roundings, calibration)
            out.value("tws_downwind_less_upwind_" + suffix, bias.isFinite ? bias : nil)
        }
        out.beginArray("each")
        for m in report.roundings {
            out.beginObject()
            windows(samples, m, report.calibration, speeds: true, into: &out)
            out.endObject()
        }
        out.endArray()
        out.endObject()
        out.beginArray("faults")
        for fault in report.faults { out.value(nil, fault) }
        out.endArray()
        out.beginArray("manoeuvres")
        for m in report.manoeuvres {
            out.beginObject()
            out.value("from", m.sideBefore > 0 ? "starboard" : "port")
            windows(samples, m, report.calibration, speeds: false, into: &out)
            if let before = CalibrationReport.instrumentDirection(samples, m.before),
                let after = CalibrationReport.instrumentDirection(samples, m.after)
            {
                out.value("twd_before_instruments", before)
                out.value("twd_after_instruments", after)
            }
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text
    }

    /// The steps in the log's reading (``LogStep``): when, the log's ratio and the wind speed's, the factors either
    /// side and how many manoeuvres said them.
    static func writeLogSteps(_ steps: [LogStep], into out: inout JSONWriter) {
        out.beginArray("log_steps")
        for step in steps {
            out.beginObject()
            out.value("time", SignalKTime.text(unixTime: step.time))
            out.value("ratio", step.ratio)
            out.value("wind_ratio", step.windRatio)
            out.value("wind_told", step.windTold)
            out.value("factor_before", step.factorBefore)
            out.value("factor_after", step.factorAfter)
            out.value("count_before", step.countBefore)
            out.value("count_after", step.countAfter)
            out.value("ratio_error", step.ratioError)
            out.value("provisional", step.provisional)
            out.endObject()
        }
        out.endArray()
    }

    /// A manoeuvre's time and kind, and its two windows: as the instruments gave them (no calibration) the mean
    /// apparent wind angle (signed, degrees) and the compass's mean heading; the true wind direction without and with
    /// `calibration` (`_calibrated`), and with `speeds` the true wind speed too.
    static func windows(
        _ samples: [SailingSample], _ m: Manoeuvre, _ calibration: SailingCalibration, speeds: Bool,
        into out: inout JSONWriter
    ) {
        out.value("time", SignalKTime.text(unixTime: m.time))
        out.value("kind", m.kind.rawValue)
        let before = WindowMeans(samples, m.before, SailingCalibration())
        let after = WindowMeans(samples, m.after, SailingCalibration())
        out.value("awa_before", before.apparentAngle)
        out.value("awa_after", after.apparentAngle)
        out.value("heading_before", before.heading)
        out.value("heading_after", after.heading)
        let calibrated = (
            WindowMeans(samples, m.before, calibration, bounded: true),
            WindowMeans(samples, m.after, calibration, bounded: true)
        )
        for (suffix, windows) in [("", (before, after)), ("_calibrated", calibrated)] {
            out.value("twd_before" + suffix, windows.0.trueDirection)
            out.value("twd_after" + suffix, windows.1.trueDirection)
            if speeds {
                out.value("tws_before" + suffix, windows.0.trueSpeed)
                out.value("tws_after" + suffix, windows.1.trueSpeed)
            }
        }
    }

    /// A learnt polar's cells as `polar`: each with the table's angle and wind speed, where its minutes lay, its speed
    /// and its count (the boat's on board, a class's ashore).
    public static func writeCells(_ polar: LearntPolar, into out: inout JSONWriter) {
        out.beginArray("polar")
        for cell in polar.filled {
            out.beginObject()
            out.value("twa", cell.angle)
            out.value("tws", cell.wind)
            out.value("mean_twa", cell.meanAngle)
            out.value("mean_tws", cell.meanWind)
            out.value("speed", cell.speed)
            out.value("count", cell.count)
            out.endObject()
        }
        out.endArray()
    }

    /// `newest_days`: the calibration learnt without the newest days, judged on their tacks (null with one day).
    static func writeNewestDays(_ check: NewestDaysCheck?, into out: inout JSONWriter) {
        guard let check else {
            out.value("newest_days", nil as Double?)
            return
        }
        out.beginObject("newest_days")
        out.value("from", SignalKTime.text(unixTime: check.from))
        out.value("days", check.days)
        out.value("tacks", check.tacks)
        out.value("samples_learnt", check.learntFrom)
        for (name, value) in [
            ("bias_uncalibrated", check.biasUncalibrated), ("bias_calibrated", check.biasCalibrated),
            ("median_jump_uncalibrated", check.jumpUncalibrated), ("median_jump_calibrated", check.jumpCalibrated),
        ] {
            out.value(name, value.isFinite ? value : nil)
        }
        out.value("says", check.says)
        out.endObject()
    }

    /// The check on the newest days read back from a report's `newest_days` (nil: none, or not a report). Only that
    /// object is parsed (a few hundred bytes; it holds none inside it), not the report, which the daemon keeps as text.
    static func newestDays(_ report: String) -> NewestDaysCheck? {
        let key = Array("\"newest_days\":{".utf8)
        let view = report.utf8
        var index = view.startIndex
        while index != view.endIndex, !view[index...].starts(with: key) { index = view.index(after: index) }
        guard index != view.endIndex else { return nil }
        let start = view.index(index, offsetBy: key.count - 1)
        guard let end = view[start...].firstIndex(of: UInt8(ascii: "}")),
            let check = JSONValue.parse(view[start...end]),
            let from = check["from"]?.string.flatMap({ SignalKTime.unixTime($0) }), let days = check["days"]?.integer,
            let tacks = check["tacks"]?.integer, let learnt = check["samples_learnt"]?.integer,
            let jumpUncalibrated = check["median_jump_uncalibrated"]?.number,
            let jumpCalibrated = check["median_jump_calibrated"]?.number
        else { return nil }
        return NewestDaysCheck(
            from: from, days: days, tacks: tacks, learntFrom: learnt,
            uncalibrated: (check["bias_uncalibrated"]?.number ?? .nan, jumpUncalibrated),
            calibrated: (check["bias_calibrated"]?.number ?? .nan, jumpCalibrated))
    }
}
