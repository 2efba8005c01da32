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
        var lacking: [String] = []
        if let history = options.history {
            samples = HistorySailing.samples(folder: history, days: options.days, since: options.since)
        } else {
            (samples, lacking) = try Self.samples(options.logs)
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
        var words = CalibrationReportWords.text(report, samples, written: options.output)
        if samples.isEmpty, !lacking.isEmpty {
            words += "  nothing to learn from: the logs carry no \(lacking.joined(separator: ", no "))\n"
        }
        if !report.faults.isEmpty { throw CommandError(words, status: 65) }
        return words
    }

    /// Every log's sailing, one sample a second, in time order. Logs whose times overlap (two boats, two simulations of
    /// one day) are laid end to end an hour apart, not interleaved: a window never mixes two logs. A log whose sailing is
    /// another's, second for second, is read once. With it, what a second needs that no log carried at all.
    static func samples(_ logs: [String]) throws(CommandError) -> (samples: [SailingSample], lacking: [String]) {
        var each: [[SailingSample]] = []
        var lacking: [String]?
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
                lacking = (lacking ?? sampler.lacking).filter(sampler.lacking.contains)
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
            lacking = (lacking ?? sampler.lacking).filter(sampler.lacking.contains)
        }
        var all: [SailingSample] = []
        var read: [[SailingSample]] = []
        for var log in each.sorted(by: { $0[0].time < $1[0].time }) {
            // The same log given twice (a copy under another name) is read once: its manoeuvres counted twice would
            // make every value surer than it is, and a handful of them a step in the log's reading.
            if read.contains(log) { continue }
            read.append(log)
            if let end = all.last?.time, log[0].time <= end {
                let shift = end + 3600 - log[0].time
                for i in log.indices { log[i].time += shift }
            }
            all += log
        }
        return (all, lacking ?? [])
    }
}
