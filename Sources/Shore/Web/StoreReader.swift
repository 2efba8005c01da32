import Fleet
import Gateway

/// The web side's reading of the store: the batches stored since it last looked, and a few seconds before while
/// it is caught up (a slower worker may commit a batch stamped earlier than one already read; those seen are
/// passed over by number, unread); the boats' links and alarms every five seconds.
struct StoreReader {
    var cursor: Double?
    var caughtUp = false
    var nextBoats = 0.0
    /// Batches read lately (boat/number) and when they were stored, forgotten once out of the overlap.
    var seen: [String: Double] = [:]
    static let overlap = 5.0
    /// Batches a turn: half a second's parsing of 1 Hz batches (22 kB each), so that a web side catching up on an
    /// hour of a big fleet still answers within about a second (3,000 held requests for 3 s: Benchmarks/fleet.py).
    static let limit = 500

    mutating func read(_ store: FleetStore, into fleet: inout FleetModel, at time: Double, log: Log) {
        do {
            let since = cursor.map { caughtUp ? $0 - Self.overlap : $0 } ?? (time - 3_600)
            // A second's work at most: a web side just started catches up over a few seconds, answering meanwhile.
            let rows = try store.batches(since: since, limit: Self.limit)
            for (received, boat, seq, json) in rows {
                let key = boat + "/" + String(seq)
                cursor = max(cursor ?? received, received)
                guard seen.updateValue(received, forKey: key) == nil else { continue }
                fleet.take(topic: "telltale/" + boat + "/history", payload: Array(json.utf8), at: received)
            }
            caughtUp = rows.count < Self.limit
            if cursor == nil { cursor = time - Self.overlap }
            if let cursor, seen.count > 4 * Self.limit {
                seen = seen.filter { $0.value > cursor - 2 * Self.overlap }
            }
            if time >= nextBoats {
                nextBoats = time + 5
                for (boat, online, alarms) in try store.boats() {
                    if let online {
                        fleet.take(
                            topic: "telltale/\(boat)/online", payload: Array((online ? "true" : "false").utf8),
                            at: time)
                    }
                    if let alarms {
                        fleet.take(topic: "telltale/\(boat)/alarms", payload: Array(alarms.utf8), at: time)
                    }
                }
            }
        } catch {
            log.warning("fleet.store.read", "fleet: cannot read the store: \(error)", [("device", "fleet")])
        }
    }
}
