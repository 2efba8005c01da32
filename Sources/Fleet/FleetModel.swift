import Marine
import SignalK

/// What `telltale fleet` knows of the boats that send to a broker (`telltale/<boat>/...`): each boat's latest values
/// (its retained topics), whether it is online, its alarms, its track from its history batches (every position, late
/// ones put in their place by time), and when it last said anything. Pure: messages and times come in.
///
/// Bounded whatever the broker sends: at most ``maximumBoats`` boats, ``maximumPaths`` values a boat, ``trackPoints``
/// points of track a boat (the older half thinned when full); a topic or payload that is not one of Telltale's is
/// counted and dropped.
public struct FleetModel: Sendable {
    public struct Boat: Sendable {
        public var id: String
        public var online: Bool?
        /// UNIX seconds when the boat last said anything.
        public var heard: Double
        public var values: [String: (value: SignalKValue, timestamp: String)] = [:]
        public var alarms: [(path: String, state: String, message: String)] = []
        /// (UNIX seconds, latitude, longitude), in time order.
        public var track: [(time: Double, latitude: Double, longitude: Double)] = []
        /// History batches seen (the last ones), so one sent twice counts once.
        var batches: [UInt64] = []
        public var samples = 0
        public var duplicates = 0
        public var late = 0
    }

    public static let maximumBoats = 500
    /// Boats followed at most: 500 for one process following a broker, more for a web side reading a store.
    public let boatLimit: Int
    public static let maximumPaths = 100
    public static let trackPoints = 2000
    public private(set) var boats: [String: Boat] = [:]
    /// Messages that were not Telltale's (a topic or payload it does not write), dropped.
    public private(set) var refused = 0

    /// Every position taken since ``takeFresh()`` was last called, when ``collectsPositions`` (for a race office that
    /// follows its races as the positions come).
    public var collectsPositions = false
    public private(set) var fresh: [(boat: String, time: Double, latitude: Double, longitude: Double)] = []

    public init(boatLimit: Int = FleetModel.maximumBoats) { self.boatLimit = boatLimit }

    /// The positions taken since the last call, in the order they came.
    public mutating func takeFresh() -> [(boat: String, time: Double, latitude: Double, longitude: Double)] {
        defer { fresh.removeAll(keepingCapacity: true) }
        return fresh
    }

    /// A message from the broker, received at `time` (UNIX seconds).
    public mutating func take(topic: String, payload: [UInt8], at time: Double) {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[0] == "telltale", Self.isBoat(parts[1]), payload.count <= 1 << 20 else {
            refused += 1
            return
        }
        let id = parts[1]
        guard boats[id] != nil || boats.count < boatLimit else {
            refused += 1
            return
        }
        let rest = parts.dropFirst(2).joined(separator: ".")
        // A boat is made by the first message of its that is taken, not by one refused.
        var boat = boats[id] ?? Boat(id: id, heard: time)
        let before = refused
        defer { if refused == before { boats[id] = boat } }
        switch rest {
        case "online":
            let text = String(decoding: payload, as: UTF8.self)
            guard text == "true" || text == "false" else {
                refused += 1
                return
            }
            boat.online = text == "true"
        case "history":
            guard let batch = UplinkBatch.parse(payload), batch.boat == id else {
                refused += 1
                return
            }
            boat.heard = max(boat.heard, time)
            if boat.batches.contains(batch.sequence) {
                boat.duplicates += 1
                return
            }
            boat.batches.append(batch.sequence)
            if boat.batches.count > 4096 { boat.batches.removeFirst(1024) }
            boat.samples += batch.samples.count
            if batch.late { boat.late += batch.samples.count }
            // The newest sample of each path is the boat's value now, when no fresher retained one came (a web side
            // reading the store sees only the batches).
            for sample in batch.samples {
                if let kept = boat.values[sample.path] {
                    if kept.timestamp < sample.timestamp { boat.values[sample.path] = (sample.value, sample.timestamp) }
                } else if boat.values.count < Self.maximumPaths {
                    boat.values[sample.path] = (sample.value, sample.timestamp)
                }
            }
            for sample in batch.samples where sample.path == "navigation.position" {
                guard case .position(let latitude, let longitude) = sample.value,
                    let when = SignalKTime.unixTime(sample.timestamp)
                else { continue }
                Self.insert((when, latitude, longitude), into: &boat.track)
                if collectsPositions && fresh.count < 1 << 20 { fresh.append((id, when, latitude, longitude)) }
            }
        case "alarms":
            guard case .array(let items)? = JSONValue.parse(payload, maximumDepth: 4) else {
                refused += 1
                return
            }
            boat.alarms = items.prefix(32).compactMap { item in
                guard let path = item["path"]?.string, let state = item["state"]?.string else { return nil }
                return (path, state, item["message"]?.string ?? "")
            }
            boat.heard = max(boat.heard, time)
        case "commands", "commands.result", "goodbye":
            return
        default:
            guard let json = JSONValue.parse(payload, maximumDepth: 6), let value = json["value"],
                let timestamp = json["timestamp"]?.string
            else {
                refused += 1
                return
            }
            guard boat.values[rest] != nil || boat.values.count < Self.maximumPaths else {
                refused += 1
                return
            }
            boat.values[rest] = (SignalKValue(json: value), timestamp)
            boat.heard = max(boat.heard, time)
            if rest == "navigation.position", case .position(let latitude, let longitude) = SignalKValue(json: value),
                let when = SignalKTime.unixTime(timestamp)
            {
                Self.insert((when, latitude, longitude), into: &boat.track)
                if collectsPositions && fresh.count < 1 << 20 { fresh.append((id, when, latitude, longitude)) }
            }
        }
    }

    /// A point into a track in time order (a late one in its place; the same time twice kept once); the older half
    /// thinned when it is full.
    static func insert(
        _ point: (time: Double, latitude: Double, longitude: Double),
        into track: inout [(time: Double, latitude: Double, longitude: Double)]
    ) {
        var index = track.count
        while index > 0 && track[index - 1].time > point.time { index -= 1 }
        if index > 0 && track[index - 1].time == point.time { return }
        track.insert(point, at: index)
        if track.count > trackPoints {
            let half = track.count / 2
            var kept: [(time: Double, latitude: Double, longitude: Double)] = []
            for (i, p) in track.enumerated() where i >= half || i % 2 == 0 { kept.append(p) }
            track = kept
        }
    }

    /// A track in `limit` points at most, evenly through it, the last always kept: the whole voyage on the chart.
    public static func thinned<Point>(_ track: [Point], to limit: Int) -> [Point] {
        guard track.count > limit, limit > 1 else { return track }
        let step = (track.count - 1 + limit - 2) / (limit - 1)
        var out: [Point] = []
        out.reserveCapacity(limit)
        var index = 0
        while index < track.count - 1 {
            out.append(track[index])
            index += step
        }
        out.append(track[track.count - 1])
        return out
    }

    /// A boat's id as the uplink writes it: letters, digits, `-`, `_`, at most 64.
    public static func isValidBoat(_ id: String) -> Bool { isBoat(id) }

    static func isBoat(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy { byte in
                (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 45
                    || byte == 95
            }
    }

    /// The fleet for the panel's Fleet layout at `time`: each boat, its age, where it is, its motion and wind, its
    /// alarms, its whole track in `trackLimit` points at most.
    ///
    /// With the race office's fleet file, each boat has its name, sail number, class and colour, and a boat entered
    /// but never heard is listed too (its age null); `classes` lists the classes in the order first entered. `only`:
    /// the boats a viewer of the shore sees (the others not said at all), nil for every boat.
    public func json(
        at time: Double, trackLimit: Int = 300, entries: [FleetEntry] = [], only: Set<String>? = nil
    ) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.value("fleet", true)
        out.value("time", time)
        var entered: [String: FleetEntry] = [:]
        var classes: [String] = []
        for entry in entries {
            entered[entry.boat] = entry
            if !entry.group.isEmpty && !classes.contains(entry.group) { classes.append(entry.group) }
        }
        out.beginArray("classes")
        for group in classes { out.value(nil, group) }
        out.endArray()
        out.beginArray("boats")
        var ids = Set(boats.keys)
        for entry in entries { ids.insert(entry.boat) }
        for id in ids.sorted() where only?.contains(id) ?? true {
            out.beginObject()
            out.value("id", id)
            if let entry = entered[id] {
                out.value("name", entry.name)
                out.value("sail", entry.sail)
                out.value("class", entry.group)
                if let colour = entry.colour { out.value("colour", colour) }
            }
            guard let boat = boats[id] else {
                out.null("online")
                out.null("age")
                out.beginArray("alarms")
                out.endArray()
                out.beginArray("track")
                out.endArray()
                out.endObject()
                continue
            }
            if let online = boat.online { out.value("online", online) } else { out.null("online") }
            SignalKValue.number("age", max(0, time - boat.heard), 1, &out)
            for path in [
                "navigation.position", "navigation.speedOverGround", "navigation.courseOverGroundTrue",
                "navigation.headingTrue", "environment.wind.speedTrue", "environment.wind.directionTrue",
                "telltale.wind.forecast",
            ] {
                if let entry = boat.values[path] { entry.value.write(path, to: &out) }
            }
            Self.writeAlarms(boat.alarms, to: &out)
            out.value("samples", boat.samples)
            out.value("late", boat.late)
            out.value("duplicates", boat.duplicates)
            // The history batches' numbers seen (the last few thousand): the highest, and how many below it never came.
            if let first = boat.batches.min(), let last = boat.batches.max() {
                out.raw("firstBatch", String(first))
                out.raw("lastBatch", String(last))
                out.raw("missingBatches", String(Int(last - first + 1) - boat.batches.count))
            }
            out.beginArray("track")
            for point in Self.thinned(boat.track, to: trackLimit) {
                out.beginArray()
                SignalKValue.number(nil, point.latitude, 7, &out)
                SignalKValue.number(nil, point.longitude, 7, &out)
                out.endArray()
            }
            out.endArray()
            out.endObject()
        }
        out.endArray()
        out.value("refused", refused)
        out.endObject()
        return out.text
    }
}
