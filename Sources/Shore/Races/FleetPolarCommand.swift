import Fleet
import Gateway
import Marine
import Platform
import SignalK

/// `telltale fleet polar`: a one-design class's polar from the store, the race office's fleet file naming the class's
/// boats. Each boat's batches are read a few hundred at a time (``FleetStore/batches(boat:from:to:after:limit:)``), her
/// samples turned into sailing (``UplinkSailing``), and her steady minutes pooled into one ``LearntPolar`` by
/// ``PolarLearner`` at the spacing she sent them.
public enum FleetPolarCommand {
    public static func run(_ options: FleetPolarOptions) throws(CommandError) -> String {
        let text: String
        do { text = String(decoding: try POSIX.readFile(options.entries, limit: 4 << 20), as: UTF8.self) } catch {
            throw CommandError("fleet polar: the fleet file \(options.entries): \(error)", status: 66)
        }
        let wanted = options.group.lowercased()
        let boats = FleetEntries.parse(text).entries.filter { $0.group.lowercased() == wanted }.map { $0.boat }
        guard !boats.isEmpty else {
            throw CommandError("fleet polar: no boat of class \(options.group) in \(options.entries)", status: 65)
        }
        let store: FleetStore
        do { store = try FleetStore(options.store) } catch {
            throw CommandError("fleet polar: the store \(FleetStore.describe(options.store)): \(error)", status: 69)
        }
        var polar = LearntPolar()
        var minutes: [(boat: String, samples: Int, minutes: Int)] = []
        for boat in boats {
            let samples = try sailing(of: boat, store, from: options.from ?? 0, to: options.to ?? 4e9)
            var learner = PolarLearner()
            learner.sampleInterval = spacing(samples)
            let before = polar.points
            learner.learn(samples, calibration: SailingCalibration(), into: &polar)
            minutes.append((boat, samples.count, polar.points - before))
        }
        if let output = options.output {
            do { try POSIX.writeFileAtomically(output, Array(polar.table().utf8)) } catch {
                throw CommandError("fleet polar: cannot write \(output): \(error)", status: 73)
            }
        }
        return options.json ? json(options.group, polar, minutes) + "\n" : words(options, polar, minutes)
    }

    /// One boat's sailing from all her batches in the span, in time order.
    static func sailing(of boat: String, _ store: FleetStore, from: Double, to: Double) throws(CommandError)
        -> [SailingSample]
    {
        var samples: [UplinkSample] = []
        var after: Int64 = 0
        while true {
            let page: [(Int64, String)]
            do { page = try store.batches(boat: boat, from: from, to: to, after: after, limit: 500) } catch {
                throw CommandError("fleet polar: the store: \(error)", status: 74)
            }
            for (seq, text) in page {
                after = seq
                guard let batch = UplinkBatch.parse(Array(text.utf8)) else { continue }
                samples += batch.samples.filter { sample in
                    SignalKTime.unixTime(sample.timestamp).map { $0 >= from && $0 <= to } ?? false
                }
            }
            if page.count < 500 { break }
        }
        return UplinkSailing.samples(samples)
    }

    /// The median spacing of the samples (seconds, 1 at least).
    static func spacing(_ samples: [SailingSample]) -> Double {
        let gaps = zip(samples, samples.dropFirst()).map { $1.time - $0.time }.sorted()
        return gaps.isEmpty ? 1 : max(1, gaps[gaps.count / 2])
    }

    static func words(
        _ options: FleetPolarOptions, _ polar: LearntPolar, _ minutes: [(boat: String, samples: Int, minutes: Int)]
    ) -> String {
        var lines = [
            "fleet polar: class \(options.group), \(minutes.count) boats, \(polar.points) steady minutes, "
                + "\(polar.filled.filter { $0.count >= 3 }.count) cells with 3 or more"
        ]
        for boat in minutes { lines.append("  \(boat.boat): \(boat.samples) samples, \(boat.minutes) steady minutes") }
        if let output = options.output { lines.append("written: \(output)") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ group: String, _ polar: LearntPolar, _ minutes: [(boat: String, samples: Int, minutes: Int)])
        -> String
    {
        var out = JSONWriter()
        out.beginObject()
        out.value("class", group)
        out.beginArray("boats")
        for boat in minutes {
            out.beginObject()
            out.value("boat", boat.boat)
            out.value("samples", boat.samples)
            out.value("minutes", boat.minutes)
            out.endObject()
        }
        out.endArray()
        CalibrationReportJSON.writeCells(polar, into: &out)
        out.endObject()
        return out.text
    }
}
