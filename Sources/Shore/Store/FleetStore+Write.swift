import Fleet
import SignalK

/// What a worker writes: batches (each once), their positions, the minute track, the boats' newest state, links,
/// alarms, its counters.
extension FleetStore {
    /// Something a worker took from a broker, for the store.
    enum Item {
        /// A batch and, when it came from a broker, its JSON as the boat sent it (stored as it is: no second writing).
        case batch(UplinkBatch, received: Double, raw: String? = nil)
        case online(boat: String, Bool, at: Double)
        case alarms(boat: String, json: String, at: Double)
    }

    /// What one ``write(_:)`` did.
    struct Written: Equatable {
        var batches = 0
        var duplicates = 0
        var positions = 0
    }

    /// A batch on its way in: its span of samples and its day.
    struct Prepared {
        var batch: UplinkBatch
        var received: Double
        var first: Double?
        var last: Double?
        var day: Int
        var raw: String?
        var key: String { batch.boat + "/" + String(batch.sequence) }
    }

    /// A boat's newest state from the batches of one write.
    struct Newest {
        var first: Double
        var last: Double
        var time: Double?
        var latitude: Double?
        var longitude: Double?
        var batches = 0
        var lastBatch: UInt64
    }

    /// A position of a batch: the boat, UNIX time, the batch's number, latitude, longitude.
    typealias Point = (boat: String, time: Double, seq: UInt64, latitude: Double, longitude: Double)

    /// Writes `items` in one transaction: each batch once (one already there is counted as a duplicate and nothing
    /// of it is written again), its positions, the boats' newest state. Throws with nothing written.
    func write(_ items: [Item]) throws(StoreError) -> Written {
        var prepared: [Prepared] = []
        var links: [(String, Bool, Double)] = []
        var alarms: [String: (String, Double)] = [:]
        for item in items {
            switch item {
            case .batch(let batch, let received, let raw):
                let times = batch.samples.compactMap { SignalKTime.unixTime($0.timestamp) }
                let first = times.min()
                prepared.append(
                    Prepared(
                        batch: batch, received: received, first: first, last: times.max(),
                        day: Self.day(first ?? received), raw: raw))
            case .online(let boat, let online, let time): links.append((boat, online, time))
            case .alarms(let boat, let json, let time):
                if let kept = alarms[boat], kept.1 > time { continue }
                alarms[boat] = (json, time)
            }
        }
        var written = Written()
        try connection.transaction { () throws(StoreError) in
            try ensurePartitions(Set(prepared.map(\.day)))
            var fresh = try insertBatches(prepared)
            var result = Written()
            var points: [Point] = []
            var newest: [String: Newest] = [:]
            for entry in prepared {
                guard fresh.remove(entry.key) != nil else {
                    result.duplicates += 1
                    continue
                }
                result.batches += 1
                Self.gather(entry, into: &newest, points: &points)
            }
            result.positions = points.count
            try insertPositions(points)
            try insertTrack(points)
            try upsertBoats(newest)
            try keepLinks(links)
            try keepAlarms(alarms)
            written = result
        }
        return written
    }

    /// The batches inserted where they are new; the keys (`boat/number`) of those that were.
    private func insertBatches(_ prepared: [Prepared]) throws(StoreError) -> Set<String> {
        var fresh: Set<String> = []
        for chunk in Self.chunks(prepared, of: 400) {
            var statement =
                "INSERT INTO fleet_batches (boat, seq, day, received, first_time, last_time, count, thinned, "
                + "alarms, late, batch) VALUES "
            var parameters: [SQLValue] = []
            for (index, entry) in chunk.enumerated() {
                let n = index * 11
                if index > 0 { statement += ", " }
                statement +=
                    "($\(n + 1), $\(n + 2), \(sql.date(n + 3)), \(sql.time(n + 4)), \(sql.time(n + 5)), "
                    + "\(sql.time(n + 6)), $\(n + 7), $\(n + 8), $\(n + 9), \(sql.flag(n + 10)), \(sql.json(n + 11)))"
                parameters += [
                    .text(entry.batch.boat), .integer(Int64(entry.batch.sequence)), .text(Self.date(entry.day)),
                    .real(entry.received), entry.first.map { .real($0) } ?? .null,
                    entry.last.map { .real($0) } ?? .null, .integer(Int64(entry.batch.count)),
                    .integer(Int64(entry.batch.thinned)), .integer(Int64(entry.batch.alarms)),
                    .integer(entry.batch.late ? 1 : 0), .text(entry.raw ?? entry.batch.json),
                ]
            }
            statement += " ON CONFLICT DO NOTHING RETURNING boat, seq"
            for row in try connection.run(statement, parameters) {
                if let boat = row[0], let seq = row[1] { fresh.insert(boat + "/" + seq) }
            }
        }
        return fresh
    }

    /// A new batch's positions and what it says of its boat's newest state.
    private static func gather(_ entry: Prepared, into newest: inout [String: Newest], points: inout [Point]) {
        let id = entry.batch.boat
        var boat = newest[id] ?? Newest(first: entry.received, last: entry.received, lastBatch: entry.batch.sequence)
        boat.first = min(boat.first, entry.received)
        boat.last = max(boat.last, entry.received)
        boat.batches += 1
        boat.lastBatch = max(boat.lastBatch, entry.batch.sequence)
        for sample in entry.batch.samples where sample.path == "navigation.position" {
            guard case .position(let latitude, let longitude) = sample.value,
                let when = SignalKTime.unixTime(sample.timestamp), latitude.isFinite, longitude.isFinite,
                abs(latitude) <= 90, abs(longitude) <= 180
            else { continue }
            points.append((id, when, entry.batch.sequence, latitude, longitude))
            if boat.time.map({ when > $0 }) ?? true {
                boat.time = when
                boat.latitude = latitude
                boat.longitude = longitude
            }
        }
        newest[id] = boat
    }

    private func insertPositions(_ points: [Point]) throws(StoreError) {
        for chunk in Self.chunks(points, of: 1000) {
            var statement = "INSERT INTO fleet_positions (boat, time, seq, \(sql.positionColumns)) VALUES "
            var parameters: [SQLValue] = []
            for (index, point) in chunk.enumerated() {
                if index > 0 { statement += ", " }
                statement += sql.positionRow(index * 5 + 1)
                parameters += [
                    .text(point.boat), .real(point.time), .integer(Int64(point.seq)), .real(point.latitude),
                    .real(point.longitude),
                ]
            }
            try connection.run(statement, parameters)
        }
    }

    /// The minute track: a boat's first point in each minute.
    private func insertTrack(_ points: [Point]) throws(StoreError) {
        var minutes: Set<String> = []
        var track: [(String, Int, Double, Double, Double)] = []
        for point in points {
            let minute = Int((point.time / 60).rounded(.down))
            if minutes.insert(point.boat + "/" + String(minute)).inserted {
                track.append((point.boat, minute, point.time, point.latitude, point.longitude))
            }
        }
        for chunk in Self.chunks(track, of: 1000) {
            var statement = "INSERT INTO fleet_track (boat, minute, time, latitude, longitude) VALUES "
            var parameters: [SQLValue] = []
            for (index, point) in chunk.enumerated() {
                let n = index * 5
                if index > 0 { statement += ", " }
                statement += "($\(n + 1), $\(n + 2), \(sql.time(n + 3)), $\(n + 4), $\(n + 5))"
                parameters += [
                    .text(point.0), .integer(Int64(point.1)), .real(point.2), .real(point.3), .real(point.4),
                ]
            }
            try connection.run(statement + " ON CONFLICT DO NOTHING", parameters)
        }
    }

    /// One statement for every boat of the write, in one order, so that two workers never wait on each other in a
    /// circle; a boat once in it (its batches gathered).
    private func upsertBoats(_ newest: [String: Newest]) throws(StoreError) {
        for chunk in Self.chunks(newest.keys.sorted(), of: 500) {
            var statement =
                "INSERT INTO fleet_boats (boat, first_heard, last_heard, last_time, latitude, longitude, batches, "
                + "last_batch) VALUES "
            var parameters: [SQLValue] = []
            for (index, boat) in chunk.enumerated() {
                guard let entry = newest[boat] else { continue }
                let n = index * 8
                if index > 0 { statement += ", " }
                statement +=
                    "($\(n + 1), \(sql.time(n + 2)), \(sql.time(n + 3)), \(sql.time(n + 4)), $\(n + 5), $\(n + 6), "
                    + "$\(n + 7), $\(n + 8))"
                parameters += [
                    .text(boat), .real(entry.first), .real(entry.last), entry.time.map { .real($0) } ?? .null,
                    entry.latitude.map { .real($0) } ?? .null, entry.longitude.map { .real($0) } ?? .null,
                    .integer(Int64(entry.batches)), .integer(Int64(entry.lastBatch)),
                ]
            }
            try connection.run(statement + Self.boatUpdate, parameters)
        }
    }

    /// A boat already kept: the later of each time, its batches counted on, the newest position.
    private static let boatUpdate =
        " ON CONFLICT (boat) DO UPDATE SET "
        + "last_heard = CASE WHEN excluded.last_heard > fleet_boats.last_heard "
        + "THEN excluded.last_heard ELSE fleet_boats.last_heard END, "
        + "batches = fleet_boats.batches + excluded.batches, "
        + "last_batch = CASE WHEN fleet_boats.last_batch IS NULL OR excluded.last_batch > fleet_boats.last_batch "
        + "THEN excluded.last_batch ELSE fleet_boats.last_batch END, "
        + ["latitude", "longitude", "last_time"].map { column in
            "\(column) = CASE WHEN excluded.last_time IS NOT NULL AND (fleet_boats.last_time IS NULL "
                + "OR excluded.last_time > fleet_boats.last_time) THEN excluded.\(column) "
                + "ELSE fleet_boats.\(column) END"
        }.joined(separator: ", ")

    private func keepLinks(_ links: [(String, Bool, Double)]) throws(StoreError) {
        for (boat, online, at) in links.sorted(by: { ($0.0, $0.2) < ($1.0, $1.2) }) {
            let parameters: [SQLValue] = [.text(boat), .real(at), .integer(online ? 1 : 0)]
            try connection.run(
                "INSERT INTO fleet_links (boat, time, online) VALUES ($1, \(sql.time(2)), \(sql.flag(3)))", parameters)
            try connection.run(
                "INSERT INTO fleet_boats (boat, first_heard, last_heard, online, online_changed) "
                    + "VALUES ($1, \(sql.time(2)), \(sql.time(2)), \(sql.flag(3)), \(sql.time(2))) "
                    + "ON CONFLICT (boat) DO UPDATE SET online = excluded.online, "
                    + "online_changed = excluded.online_changed", parameters)
        }
    }

    private func keepAlarms(_ alarms: [String: (String, Double)]) throws(StoreError) {
        for boat in alarms.keys.sorted() {
            guard let (json, at) = alarms[boat] else { continue }
            try connection.run(
                "INSERT INTO fleet_boats (boat, first_heard, last_heard, alarms) VALUES ($1, \(sql.time(2)), "
                    + "\(sql.time(2)), \(sql.json(3))) ON CONFLICT (boat) DO UPDATE SET alarms = excluded.alarms",
                [.text(boat), .real(at), .text(json)])
        }
    }

    /// A worker's counters, for what to watch (`fleet_workers`).
    func report(
        worker: String, at time: Double, messages: Int, batches: Int, duplicates: Int, refused: Int, lag: Double?
    ) throws(StoreError) {
        try connection.run(
            "INSERT INTO fleet_workers (worker, heard, messages, batches, duplicates, refused, lag) "
                + "VALUES ($1, \(sql.time(2)), $3, $4, $5, $6, $7) ON CONFLICT (worker) DO UPDATE SET "
                + "heard = excluded.heard, messages = excluded.messages, batches = excluded.batches, "
                + "duplicates = excluded.duplicates, refused = excluded.refused, lag = excluded.lag",
            [
                .text(worker), .real(time), .integer(Int64(messages)), .integer(Int64(batches)),
                .integer(Int64(duplicates)), .integer(Int64(refused)), lag.map { .real($0) } ?? .null,
            ])
    }
}
