import Engine
import Marine
import NMEA
import Platform
import SignalK

/// `telltale calibrate sailing`: recorded logs (NMEA 0183, or a recorded NMEA 2000 bus) into seconds of sailing (``SailingSampler``), the learner's report
/// (``CalibrationLearner``) said in words or JSON, the sure values written for `[calibration] file`.
public enum CalibrationCommand {
    public static func run(_ options: CalibrateSailingOptions) throws(CommandError) -> String {
        guard !options.logs.isEmpty || options.history != nil else {
            throw CommandError("calibrate sailing: name at least one LOG, or --history", status: 64)
        }
        let samples: [SailingSample]
        if let history = options.history {
            samples = HistorySailing.samples(folder: history, days: options.days)
        } else {
            samples = try Self.samples(options.logs)
        }
        var base = SailingCalibration()
        if let applied = options.applied, POSIX.exists(applied) {
            do { base = try CalibrationFile.load(applied) } catch {
                throw CommandError("calibrate sailing: --applied \(error)", status: 66)
            }
        }
        if let judge = options.judge {
            let calibration: SailingCalibration
            do { calibration = try CalibrationFile.load(judge) } catch {
                throw CommandError("calibrate sailing: \(error)", status: 66)
            }
            var report = CalibrationReport(
                samples: samples.count, manoeuvres: ManoeuvreFinder().manoeuvres(in: samples), faults: [])
            report.calibration = calibration
            return options.json
                ? CalibrationReportJSON.text(report, samples) + "\n"
                : CalibrationReportWords.text(report, samples, written: nil)
        }
        let report = CalibrationLearner().learn(samples)
        if let output = options.output {
            let sources =
                options.history.map { _ in "the history of the last \(Int(options.days)) days" }
                ?? options.logs.map { String($0.split(separator: "/").last ?? "") }.joined(separator: ", ")
            do { try POSIX.writeFileAtomically(output, CalibrationFile.text(report, from: sources, base: base)) } catch
            {
                throw CommandError("calibrate sailing: cannot write \(output): \(error)", status: 73)
            }
        }
        var polar: LearntPolar?
        if let path = options.polar {
            let learnt = PolarLearner().learn(samples, calibration: report.calibration)
            do { try POSIX.writeFileAtomically(path, learnt.table()) } catch {
                throw CommandError("calibrate sailing: cannot write \(path): \(error)", status: 73)
            }
            polar = learnt
        }
        if options.json { return CalibrationReportJSON.text(report, samples, polar: polar) + "\n" }
        let words = CalibrationReportWords.text(report, samples, written: options.output)
        if !report.faults.isEmpty { throw CommandError(words, status: 65) }
        return words
    }

    /// Every log's sailing, one sample a second, in time order. Logs whose times overlap (two boats, two simulations of
    /// one day) are laid end to end an hour apart, not interleaved: a window never mixes two logs.
    public static func samples(_ logs: [String]) throws(CommandError) -> [SailingSample] {
        var each: [[SailingSample]] = []
        for log in logs {
            var sampler = SailingSampler()
            if N2KRecordingStream.isBus(log) {
                // A recorded NMEA 2000 bus: read into sentences by the gateway's own converter, as a replay reads it.
                let stream: N2KRecordingStream
                do { stream = try N2KRecordingStream(path: log, prefix: "log", lineRate: 10) } catch {
                    throw CommandError("calibrate sailing: cannot read \(log): \(error)", status: 66)
                }
                while let timed = stream.next() {
                    if let message = try? Message(timed.sentence) { sampler.take(message) }
                }
                if !sampler.samples.isEmpty { each.append(sampler.samples) }
                continue
            }
            let bytes: [UInt8]
            do { bytes = try POSIX.readFile(log, limit: 1 << 30) } catch {
                throw CommandError("calibrate sailing: cannot read \(log): \(error)", status: 66)
            }
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                var text = String(decoding: line, as: UTF8.self)
                if text.hasSuffix("\r") { text.removeLast() }
                guard let start = text.firstIndex(where: { $0 == "$" || $0 == "!" }),
                    let sentence = try? Sentence(parsing: String(text[start...])),
                    let message = try? Message(sentence)
                else { continue }
                sampler.take(message)
            }
            if !sampler.samples.isEmpty { each.append(sampler.samples) }
        }
        var all: [SailingSample] = []
        for var log in each.sorted(by: { $0[0].time < $1[0].time }) {
            if let end = all.last?.time, log[0].time <= end {
                let shift = end + 3600 - log[0].time
                for i in log.indices { log[i].time += shift }
            }
            all += log
        }
        return all
    }
}

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
            ("upwash_downwind", report.upwashDownwind, "°", 2), ("speed_factor", report.speedFactor, "", 4),
            ("aws_factor", report.awsFactor, "", 3),
        ] {
            let spread =
                learnt.uncertainty.isFinite ? " ± " + FixedDecimal.text(learnt.uncertainty, decimals: decimals) : ""
            lines.append(
                "  \(name): \(FixedDecimal.text(learnt.value, decimals: decimals))\(unit)\(spread) from \(learnt.count): "
                    + learnt.words)
        }
        lines += CalibrationDeviationReport.lines(report.deviation)
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
            lines.append(
                "  \(label): bias \(FixedDecimal.text(raw.bias, decimals: 1))° uncalibrated, "
                    + "\(FixedDecimal.text(calibrated.bias, decimals: 1))° calibrated; median jump "
                    + "\(FixedDecimal.text(raw.size, decimals: 1))° and \(FixedDecimal.text(calibrated.size, decimals: 1))°"
            )
        }
        if report.calibration.isIdentity && report.faults.isEmpty {
            lines.append("not enough data: no value is sure yet (sail more tacks and gybes, steady either side)")
        }
        if let written { lines.append("written: \(written)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The report as JSON: `awa_offset`, `upwash_upwind`, `upwash_downwind`, `speed_factor` (each `value`,
/// `uncertainty`, `count`, `status`), the tack and gybe bias, the faults, and every manoeuvre used with its true wind
/// direction before and after, without and with the calibration.
enum CalibrationReportJSON {
    static func text(_ report: CalibrationReport, _ samples: [SailingSample], polar: LearntPolar? = nil) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.value("samples", report.samples)
        if let polar {
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
        for (name, learnt) in [
            ("awa_offset", report.awaOffset), ("upwash_upwind", report.upwashUpwind),
            ("upwash_downwind", report.upwashDownwind), ("speed_factor", report.speedFactor),
            ("aws_factor", report.awsFactor),
        ] {
            out.beginObject(name)
            out.value("value", learnt.value)
            out.value("uncertainty", learnt.uncertainty.isFinite ? learnt.uncertainty : nil)
            out.value("count", learnt.count)
            out.value("status", learnt.words)
            out.value("applied", learnt.isSure)
            out.endObject()
        }
        CalibrationDeviationReport.write(report.deviation, into: &out)
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
            out.endObject()
        }
        out.beginObject("roundings")
        out.value("count", report.roundings.count)
        for (suffix, calibration) in [("uncalibrated", SailingCalibration()), ("calibrated", report.calibration)] {
            let bias = CalibrationReport.windSpeedBias(samples, report.roundings, calibration)
            out.value("tws_downwind_less_upwind_" + suffix, bias.isFinite ? bias : nil)
        }
        out.beginArray("each")
        for m in report.roundings {
            out.beginObject()
            out.value("time", SignalKTime.text(unixTime: m.time))
            out.value("kind", m.kind.rawValue)
            for (suffix, calibration) in [("", SailingCalibration()), ("_calibrated", report.calibration)] {
                out.value("tws_before" + suffix, WindowMeans(samples, m.before, calibration).trueSpeed)
                out.value("tws_after" + suffix, WindowMeans(samples, m.after, calibration).trueSpeed)
            }
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
            out.value("time", SignalKTime.text(unixTime: m.time))
            out.value("kind", m.kind.rawValue)
            out.value("from", m.sideBefore > 0 ? "starboard" : "port")
            for (suffix, calibration) in [("", SailingCalibration()), ("_calibrated", report.calibration)] {
                out.value("twd_before" + suffix, WindowMeans(samples, m.before, calibration).trueDirection)
                out.value("twd_after" + suffix, WindowMeans(samples, m.after, calibration).trueDirection)
            }
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.text
    }
}
