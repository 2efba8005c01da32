import Engine
import NMEA
import Router

/// An input whose lines cannot be read, said in the log with what to look at (``InputHealth`` decides; Signal K's
/// notification is the feed's).
extension Runtime {
    /// Once a second: each input's bytes received so far, for the router to judge.
    func watchInputs(now: Double) {
        var totals: [(source: SourceID, bytes: Int)] = []
        for input in inputs.inputs {
            if let bytes = input.transport.bytesReceived { totals.append((input.source, bytes)) }
        }
        guard !totals.isEmpty else { return }
        router.received(totals, at: engineTime(now)) { perform($0) }
    }

    func inputHealth(_ source: SourceID, _ name: String, _ change: InputHealth.Change) {
        switch change {
        case .unreadable(let bytes, let sentences, let reason):
            let hint = inputs.inputs.first { $0.source == source }?.transport.unreadableHint ?? ""
            log.warning(
                "input.unreadable",
                "input \(name): \(InputHealth.words(bytes: bytes, sentences: sentences, reason: reason)); " + hint,
                [("input", name), ("bytes", "\(bytes)"), ("reason", reason?.name ?? "no-line-end")])
        case .readable:
            log.notice("input.readable", "input \(name): its lines are read again", [("input", name)])
        }
    }
}
