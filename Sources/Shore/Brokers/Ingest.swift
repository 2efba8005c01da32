import Fleet
import Gateway
import Platform
import SignalK

/// What a process took from its brokers on its way into the store, and its counters.
struct Ingest {
    let store: FleetStore
    let worker: String
    let log: Log
    var pending: [FleetStore.Item] = []
    var messages = 0
    var batches = 0
    var duplicates = 0
    var refused = 0
    var refusedBy: [String: Int] = [:]
    /// The longest delay from a batch's last sample to its commit since the last report.
    var lag: Double?
    /// The one reported last (kept while no batch comes).
    var lagReported: Double?
    private var failures = 0
    private var retryAt = 0.0

    init(store: FleetStore, worker: String, log: Log) {
        self.store = store
        self.worker = worker
        self.log = log
    }

    mutating func take(topic: String, payload: [UInt8], at time: Double) {
        messages += 1
        switch FleetIngest.judge(topic: topic, payload: payload, at: time) {
        case .item(let item): pending.append(item)
        case .skipped: break
        case .refused(let why): refuse(why, count: 1, on: String(topic.prefix(80)))
        }
    }

    mutating func refuse(_ why: String, count: Int, on topic: String) {
        refused += count
        refusedBy[why, default: 0] += count
        log.warning(
            "fleet.input." + why, "fleet: a message refused (\(why)) on \(topic)", [("device", "fleet")])
    }

    /// Writes what is pending; true when the store has it all.
    mutating func flush(at time: Double) -> Bool {
        guard !pending.isEmpty else { return true }
        guard time >= retryAt else { return false }
        do {
            let written = try store.write(pending)
            let committed = POSIX.unixTime()
            for case .batch(let batch, _, _) in pending {
                if let last = batch.samples.last.flatMap({ SignalKTime.unixTime($0.timestamp) }) {
                    lag = max(lag ?? 0, committed - last)
                }
            }
            batches += written.batches
            duplicates += written.duplicates
            pending.removeAll(keepingCapacity: true)
            if failures > 0 {
                log.notice("fleet.store.again", "fleet: the store takes writes again", [("device", "fleet")])
            }
            failures = 0
            return true
        } catch {
            failures += 1
            retryAt = time + min(30, Double(1 << min(failures - 1, 5)))
            log.warning("fleet.store", "fleet: the store did not take a write: \(error)", [("device", "fleet")])
            return false
        }
    }

    /// The counters into `fleet_workers`, once a second.
    mutating func report(at time: Double) {
        try? store.report(
            worker: worker, at: time, messages: messages, batches: batches, duplicates: duplicates,
            refused: refused, lag: lag ?? lagReported)
        if lag != nil { lagReported = lag }
        lag = nil
    }
}

/// Where a broker's messages go: into the store through the ingest, and onto the live view when the link shows them
/// (the committee's laptop), with the shore's clock.
struct ShoreIntake {
    var ingest: Ingest
    var fleet: FleetModel
    let log: Log
    /// UNIX seconds of the turn.
    var unixTime = 0.0
    /// The boat watch, where the boats' live messages come (the laptop's process, `--role all`).
    var watch: ShoreWatch?

    mutating func take(topic: String, payload: [UInt8], show: Bool) {
        if show {
            fleet.take(topic: topic, payload: payload, at: unixTime)
            watch?.take(topic: topic, payload: payload, at: unixTime)
        }
        ingest.take(topic: topic, payload: payload, at: unixTime)
    }
}
