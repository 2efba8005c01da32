import SignalK

extension FleetModel {
    /// One boat as its owner's panel reads it ashore (`/telltale/v1/fleet/boats/<id>/values`), nil for a boat not
    /// heard: `{"boat", "time", "clock", "online", "silent", "values": [{"path", "value", "timestamp", "age"}],
    /// "alarms"}`; `clock` is her own clock now (UNIX seconds, ``clock(_:at:)``), what her track is asked over.
    ///
    /// `silent` is the seconds since the shore last heard the boat. A value's `age` is how old it is by the boat's
    /// own clock (behind the newest value the boat sent) plus that silence: right on a boat replaying a log of another
    /// year, and on a boat whose clock is not the shore's. A value whose time cannot be read is as old as the silence.
    public func boatJSON(_ id: String, at time: Double) -> String? {
        guard let boat = boats[id] else { return nil }
        let (times, newest) = Self.times(boat)
        let silent = max(0, time - boat.heard)
        var out = JSONWriter()
        out.beginObject()
        out.value("boat", id)
        out.value("time", time)
        if let newest { SignalKValue.number("clock", newest + silent, 1, &out) } else { out.null("clock") }
        if let online = boat.online { out.value("online", online) } else { out.null("online") }
        SignalKValue.number("silent", silent, 1, &out)
        out.beginArray("values")
        for path in boat.values.keys.sorted() {
            guard let entry = boat.values[path] else { continue }
            out.beginObject()
            out.value("path", path)
            entry.value.write("value", to: &out)
            out.value("timestamp", entry.timestamp)
            let behind = times[path].flatMap { when in newest.map { $0 - when } } ?? 0
            SignalKValue.number("age", behind + silent, 1, &out)
            out.endObject()
        }
        out.endArray()
        Self.writeAlarms(boat.alarms, to: &out)
        out.endObject()
        return out.text
    }

    /// The boat's clock now: the newest time it sent a value at, and the seconds since the shore heard it; nil for a
    /// boat not heard or that sent no time that can be read.
    public func clock(_ id: String, at time: Double) -> Double? {
        guard let boat = boats[id], let newest = Self.times(boat).newest else { return nil }
        return newest + max(0, time - boat.heard)
    }

    static func times(_ boat: Boat) -> (times: [String: Double], newest: Double?) {
        var times: [String: Double] = [:]
        var newest: Double?
        for (path, entry) in boat.values {
            guard let when = SignalKTime.unixTime(entry.timestamp) else { continue }
            times[path] = when
            newest = max(newest ?? when, when)
        }
        return (times, newest)
    }

    /// `"alarms": [{"path", "state", "message"}]`, as the Fleet layout and the owner's panel read them.
    static func writeAlarms(_ alarms: [(path: String, state: String, message: String)], to out: inout JSONWriter) {
        out.beginArray("alarms")
        for alarm in alarms {
            out.beginObject()
            out.value("path", alarm.path)
            out.value("state", alarm.state)
            out.value("message", alarm.message)
            out.endObject()
        }
        out.endArray()
    }
}
