import Fleet
import Gateway
import Platform
import SignalK

/// The owner's history queries (`boats/<id>/history/values`), read from the store a page of batches at a time
/// between the web side's other work, and answered when done: a day of a boat sampled at 1 Hz is five seconds of
/// parsing (Benchmarks/owner_history.py), which in one piece would hold every other request that long. Each turn
/// reads pages for 25 ms at most; at most 32 queries wait (more: 503).
final class HistoryReadings {
    struct Job {
        let id: Int
        let boat: String
        var aggregator: HistoryAggregator
        var after: Int64 = -1
    }

    private(set) var jobs: [Job] = []
    static let page = 50
    static let most = 32
    static let budget = 0.025

    var reading: Bool { !jobs.isEmpty }

    /// A query to read for request `id`; false when too many wait.
    func add(_ id: Int, boat: String, _ query: HistoryQuery) -> Bool {
        guard jobs.count < Self.most else { return false }
        jobs.append(Job(id: id, boat: boat, aggregator: HistoryAggregator(query)))
        return true
    }

    /// Pages read for the oldest queries while the turn's budget lasts; the answers of those done (a store that
    /// cannot be read: 503).
    func work(_ store: FleetStore, log: Log) -> [(Int, SignalKServer.ShellReply)] {
        var answers: [(Int, SignalKServer.ShellReply)] = []
        let start = POSIX.monotonic()
        while !jobs.isEmpty && POSIX.monotonic() - start < Self.budget {
            var job = jobs[0]
            let query = job.aggregator.query
            do {
                let rows = try store.batches(
                    boat: job.boat, from: query.from, to: query.to, after: job.after, limit: Self.page)
                for (seq, json) in rows {
                    job.after = seq
                    guard let batch = UplinkBatch.parse(Array(json.utf8)) else { continue }
                    for minute in FleetHistory.minutes(of: batch.samples)
                    where job.aggregator.wants(minute: minute.minute) {
                        job.aggregator.add(minute)
                    }
                }
                if rows.count < Self.page {
                    answers.append((job.id, .json(status: 200, job.aggregator.json(context: "vessels." + job.boat))))
                    jobs.removeFirst()
                } else {
                    jobs[0] = job
                }
            } catch {
                log.warning("fleet.store.read", "fleet: cannot read the store: \(error)", [("device", "fleet")])
                answers.append((job.id, .message(status: 503, "the store cannot be read now")))
                jobs.removeFirst()
            }
        }
        return answers
    }
}
