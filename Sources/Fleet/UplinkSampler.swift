import Engine
import Marine
import SignalK

/// Which values go ashore and when: each group's paths read from the Signal K model at the group's rate (the
/// preferred source's value, only when it is newer than the one last sent), a value withdrawn sent once as null,
/// every alarm the moment it changes, and an AIS summary (how many stations, the one that comes closest). Pure:
/// the model and the time come in.
public struct UplinkSampler: Sendable {
    public let intervals: [UplinkGroup: Double]
    private var due: [UplinkGroup: Double] = [:]
    /// Per path: the timestamp last sent (`"null"` once withdrawn).
    private var sent: [String: String] = [:]

    /// `groups` with their seconds between samples (absent: not sent).
    public init(groups: [UplinkGroup: Double]) { intervals = groups }

    /// The samples due at `time` (engine seconds; `unixTime` the UTC it stands for).
    public mutating func samples(from model: SignalKModel, at time: Double, unixTime: Double) -> [UplinkSample] {
        var out: [UplinkSample] = []
        for group in UplinkGroup.allCases {
            guard let interval = intervals[group] else { continue }
            if group == .alarms {
                collectAlarms(model, at: time, unixTime: unixTime, into: &out)
                continue
            }
            if let next = due[group], time < next, time >= next - interval { continue }
            due[group] = time + interval
            if group == .ais {
                collectTraffic(model, unixTime: unixTime, into: &out)
                continue
            }
            for path in group.paths { collect(path, model, at: time, unixTime: unixTime, into: &out) }
        }
        return out
    }

    /// A reading's time on the report's clock: its engine time's distance from the report's, from the report's UTC. A
    /// reading stamped before the clock was known (the instruments before the GPS, the machine's day) is re-stamped on
    /// the one timeline, never sent with the other clock's time.
    static func stamp(_ entry: SignalKModel.Entry, at time: Double, unixTime: Double) -> String {
        SignalKTime.text(unixTime: unixTime + (entry.time - time))
    }

    private mutating func collect(
        _ path: String, _ model: SignalKModel, at time: Double, unixTime: Double, into out: inout [UplinkSample]
    ) {
        guard let source = model.preferredSource(path),
            let entry = model.entries[path]?.first(where: { $0.source == source })
        else {
            // Gone: said once, so a value kept on the broker does not look current.
            if let last = sent[path], last != "null" {
                sent[path] = "null"
                out.append(
                    UplinkSample(
                        path: path, value: .null, timestamp: SignalKTime.text(unixTime: unixTime), source: "telltale"))
            }
            return
        }
        guard sent[path] != entry.timestamp else { return }
        sent[path] = entry.timestamp
        out.append(
            UplinkSample(
                path: path, value: entry.value, timestamp: Self.stamp(entry, at: time, unixTime: unixTime),
                source: entry.source))
    }

    private mutating func collectAlarms(
        _ model: SignalKModel, at time: Double, unixTime: Double, into out: inout [UplinkSample]
    ) {
        var changed: [UplinkSample] = []
        for (path, list) in model.entries where path.hasPrefix("notifications.") {
            guard let entry = list.first else { continue }
            var value = JSONWriter()
            entry.value.write(nil, to: &value)
            let key = entry.timestamp + value.text
            guard sent[path] != key else { continue }
            sent[path] = key
            changed.append(
                UplinkSample(
                    path: path, value: entry.value, timestamp: Self.stamp(entry, at: time, unixTime: unixTime),
                    source: entry.source))
        }
        // In path order: the same alarms the same way on every run.
        out += changed.sorted { $0.path < $1.path }
    }

    private mutating func collectTraffic(_ model: SignalKModel, unixTime: Double, into out: inout [UplinkSample]) {
        let stations = model.traffic.stations.filter { $0.context != SignalKTraffic.forecastContext }
        let stamp = SignalKTime.text(unixTime: unixTime)
        out.append(
            UplinkSample(
                path: "ais.count", value: .number(Double(stations.count)), timestamp: stamp, source: "telltale.ais"))
        var closest: SignalKTraffic.Station?
        for station in stations {
            guard let approach = station.approach, approach.time > 0 else { continue }
            if closest.map({ approach.distance < $0.approach!.distance }) ?? true { closest = station }
        }
        guard let closest, let approach = closest.approach else { return }
        var members: [(String, SignalKValue)] = [("mmsi", .text(String(closest.mmsi)))]
        for (path, value) in closest.values where path.isEmpty {
            if case .object(let keys, let values) = value, let index = keys.firstIndex(of: "name") {
                members.append(("name", values[index]))
            }
        }
        members += [("distance", .number(approach.distance)), ("timeTo", .number(approach.time))]
        out.append(UplinkSample(path: "ais.closest", value: .object(members), timestamp: stamp, source: "telltale.ais"))
    }
}
