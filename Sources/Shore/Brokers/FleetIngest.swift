import CPosix
import Fleet
import Gateway
import Platform
import SignalK

/// A message from a broker judged for the store: one of Telltale's (a boat's history batch, its link, its alarms)
/// becomes an item; anything else is refused with its reason, counted, and never stored.
enum FleetIngest {
    enum Outcome: Equatable {
        case item(FleetStore.Item)
        /// Telltale's, but not for the store (a live value, a command).
        case skipped
        case refused(String)
    }

    /// The oldest and newest a sample may be against the shore's clock: a boat whose clock says 1970 or 2099 is not
    /// believed (and never makes a partition for it).
    static let oldest = 400.0 * 86_400
    static let newest = 86_400.0

    static func judge(topic: String, payload: [UInt8], at time: Double) -> Outcome {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == "telltale" else { return .refused("topic") }
        let boat = String(parts[1])
        guard FleetModel.isValidBoat(boat) else { return .refused("boat") }
        guard payload.count <= 1 << 20 else { return .refused("size") }
        switch parts.dropFirst(2).joined(separator: "/") {
        case "history":
            guard let batch = UplinkBatch.parse(payload) else { return .refused("json") }
            guard batch.boat == boat else { return .refused("boat") }
            for sample in batch.samples {
                guard let when = SignalKTime.unixTime(sample.timestamp), when > time - oldest, when < time + newest
                else { return .refused("time") }
            }
            return .item(.batch(batch, received: time, raw: String(decoding: payload, as: UTF8.self)))
        case "online":
            let text = String(decoding: payload, as: UTF8.self)
            guard text == "true" || text == "false" else { return .refused("json") }
            return .item(.online(boat: boat, text == "true", at: time))
        case "alarms":
            guard case .array? = JSONValue.parse(payload, maximumDepth: 4, maximumLength: 64 << 10) else {
                return .refused("json")
            }
            return .item(.alarms(boat: boat, json: String(decoding: payload, as: UTF8.self), at: time))
        default:
            return .skipped
        }
    }
}

extension FleetStore.Item: Equatable {
    static func == (a: FleetStore.Item, b: FleetStore.Item) -> Bool {
        switch (a, b) {
        case (.batch(let x, let t, let r), .batch(let y, let u, let q)): x == y && t == u && r == q
        case (.online(let x, let p, let t), .online(let y, let q, let u)): x == y && p == q && t == u
        case (.alarms(let x, let j, let t), .alarms(let y, let k, let u)): x == y && j == k && t == u
        default: false
        }
    }
}
