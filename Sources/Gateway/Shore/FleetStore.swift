import Fleet
import Marine
import Platform
import SignalK

/// What `telltale fleet` keeps of every boat: its history batches (each stored once, whatever the broker hands over
/// twice), every position of them as a point (PostGIS geography in PostgreSQL, latitude and longitude in SQLite), its
/// link's ups and downs, its alarms, and each worker's counters. PostgreSQL's big tables are partitioned by day, so a
/// past race is dropped or archived as whole tables; SQLite keeps the same tables unpartitioned.
///
/// The schema is made and migrated by the program (`telltale_schema` holds its version), under a lock so that
/// several workers starting at once agree.
final class FleetStore {
    let connection: SQLConnection
    var dialect: SQLDialect { connection.dialect }
    /// The days whose partitions are known to exist (PostgreSQL).
    private var days: Set<Int> = []

    static let version = 2

    /// `postgres://...` (or `postgresql://`), else a SQLite file's path.
    init(_ location: String) throws(StoreError) {
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            connection = try PostgresConnection(location)
        } else {
            connection = try SQLiteConnection(path: location)
        }
        try migrate()
    }

    /// Where the store is, without its password (for the log).
    static func describe(_ location: String) -> String {
        guard location.hasPrefix("postgres"), let at = location.lastIndex(of: "@"),
            let colon = location.firstIndex(of: ":")
        else { return location }
        return String(location[..<colon]) + "://..." + String(location[at...])
    }

    // MARK: Schema

    /// Each version's statements, in order; a store at version N gets those after N.
    private var migrations: [[String]] {
        switch dialect {
        case .postgres:
            [
                [
                    "CREATE EXTENSION IF NOT EXISTS postgis",
                    """
                    CREATE TABLE fleet_boats (boat text PRIMARY KEY, first_heard timestamptz NOT NULL, \
                    last_heard timestamptz NOT NULL, online boolean, online_changed timestamptz, alarms jsonb, \
                    last_time timestamptz, latitude double precision, longitude double precision, \
                    batches bigint NOT NULL DEFAULT 0, last_batch bigint)
                    """,
                    """
                    CREATE TABLE fleet_batches (boat text NOT NULL, seq bigint NOT NULL, day date NOT NULL, \
                    received timestamptz NOT NULL, first_time timestamptz, last_time timestamptz, count integer NOT NULL, \
                    thinned integer NOT NULL, alarms integer NOT NULL, late boolean NOT NULL, batch jsonb NOT NULL, \
                    PRIMARY KEY (boat, seq, day)) PARTITION BY RANGE (day)
                    """,
                    "CREATE INDEX fleet_batches_received ON fleet_batches (received)",
                    """
                    CREATE TABLE fleet_positions (boat text NOT NULL, time timestamptz NOT NULL, seq bigint NOT NULL, \
                    position geography(Point, 4326) NOT NULL) PARTITION BY RANGE (time)
                    """,
                    "CREATE INDEX fleet_positions_boat_time ON fleet_positions (boat, time)",
                    "CREATE TABLE fleet_links (boat text NOT NULL, time timestamptz NOT NULL, online boolean NOT NULL)",
                    "CREATE INDEX fleet_links_boat_time ON fleet_links (boat, time)",
                    """
                    CREATE TABLE fleet_workers (worker text PRIMARY KEY, heard timestamptz NOT NULL, \
                    messages bigint NOT NULL, batches bigint NOT NULL, duplicates bigint NOT NULL, \
                    refused bigint NOT NULL, lag real)
                    """,
                ],
                [
                    """
                    CREATE TABLE fleet_track (boat text NOT NULL, minute bigint NOT NULL, time timestamptz NOT NULL, \
                    latitude double precision NOT NULL, longitude double precision NOT NULL, \
                    PRIMARY KEY (boat, minute)) PARTITION BY RANGE (minute)
                    """
                ],
            ]
        case .sqlite:
            [
                [
                    """
                    CREATE TABLE fleet_boats (boat text PRIMARY KEY, first_heard real NOT NULL, last_heard real NOT NULL, \
                    online integer, online_changed real, alarms text, last_time real, latitude real, longitude real, \
                    batches integer NOT NULL DEFAULT 0, last_batch integer)
                    """,
                    """
                    CREATE TABLE fleet_batches (boat text NOT NULL, seq integer NOT NULL, day text NOT NULL, \
                    received real NOT NULL, first_time real, last_time real, count integer NOT NULL, \
                    thinned integer NOT NULL, alarms integer NOT NULL, late integer NOT NULL, batch text NOT NULL, \
                    PRIMARY KEY (boat, seq))
                    """,
                    "CREATE INDEX fleet_batches_received ON fleet_batches (received)",
                    """
                    CREATE TABLE fleet_positions (boat text NOT NULL, time real NOT NULL, seq integer NOT NULL, \
                    latitude real NOT NULL, longitude real NOT NULL)
                    """,
                    "CREATE INDEX fleet_positions_boat_time ON fleet_positions (boat, time)",
                    "CREATE TABLE fleet_links (boat text NOT NULL, time real NOT NULL, online integer NOT NULL)",
                    "CREATE INDEX fleet_links_boat_time ON fleet_links (boat, time)",
                    """
                    CREATE TABLE fleet_workers (worker text PRIMARY KEY, heard real NOT NULL, messages integer NOT NULL, \
                    batches integer NOT NULL, duplicates integer NOT NULL, refused integer NOT NULL, lag real)
                    """,
                ],
                [
                    """
                    CREATE TABLE fleet_track (boat text NOT NULL, minute integer NOT NULL, time real NOT NULL, \
                    latitude real NOT NULL, longitude real NOT NULL, PRIMARY KEY (boat, minute))
                    """
                ],
            ]
        }
    }

    private func migrate() throws(StoreError) {
        let steps = migrations
        try connection.transaction { () throws(StoreError) in
            // One migrator at a time: the others wait here, then find the work done.
            if dialect == .postgres { try connection.run("SELECT pg_advisory_xact_lock(4711043)") }
            try connection.script("CREATE TABLE IF NOT EXISTS telltale_schema (version integer NOT NULL)")
            let rows = try connection.run("SELECT max(version) FROM telltale_schema")
            let current = rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
            guard current <= Self.version else {
                throw StoreError(
                    "the store's schema is version \(current), newer than this telltale's (\(Self.version))")
            }
            for (index, statements) in steps.enumerated() where index + 1 > current {
                for statement in statements { try connection.script(statement) }
                if index + 1 == 2 { try backfillTrack() }
                try connection.run("INSERT INTO telltale_schema (version) VALUES ($1)", [.integer(Int64(index + 1))])
            }
        }
    }

    /// Version 2's minute track, from the positions a store of version 1 kept.
    private func backfillTrack() throws(StoreError) {
        if dialect == .postgres {
            let days = try connection.run(
                "SELECT DISTINCT floor(extract(epoch from time) / 86400)::bigint FROM fleet_positions")
            try ensurePartitions(Set(days.compactMap { $0[0].flatMap { Int($0) } }), locked: false)
        }
        let minute =
            dialect == .postgres ? "floor(extract(epoch from time) / 60)::bigint" : "CAST(time / 60 AS integer)"
        let latitude = dialect == .postgres ? "ST_Y(position::geometry)" : "latitude"
        let longitude = dialect == .postgres ? "ST_X(position::geometry)" : "longitude"
        try connection.script(
            "INSERT INTO fleet_track (boat, minute, time, latitude, longitude) SELECT boat, \(minute), time, "
                + "\(latitude), \(longitude) FROM fleet_positions ORDER BY boat, time ON CONFLICT DO NOTHING")
    }

    // MARK: Writing

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

    private func time(_ index: Int) -> String { dialect == .postgres ? "to_timestamp($\(index))" : "$\(index)" }
    private func boolean(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }

    /// A boolean as the dialect takes it from a parameter.
    private func flag(_ index: Int) -> String { dialect == .postgres ? "($\(index) <> 0)" : "$\(index)" }

    /// The UTC day number (days since 1970) of a UNIX time.
    static func day(_ time: Double) -> Int { Int((time / 86_400).rounded(.down)) }

    /// A day number as `YYYY-MM-DD`.
    static func date(_ day: Int) -> String { String(SignalKTime.text(unixTime: Double(day) * 86_400).prefix(10)) }

    private func ensurePartitions(_ needed: Set<Int>, locked: Bool = true) throws(StoreError) {
        guard dialect == .postgres else { return }
        for day in needed.subtracting(days).sorted() {
            let from = Self.date(day)
            let to = Self.date(day + 1)
            let suffix = String(from.filter { $0 != "-" })
            // Two workers making the same day's tables wait for each other on this lock, then find them made.
            if locked { try connection.run("SELECT pg_advisory_xact_lock(4711044)") }
            try connection.script(
                "CREATE TABLE IF NOT EXISTS fleet_track_\(suffix) PARTITION OF fleet_track "
                    + "FOR VALUES FROM (\(day * 1440)) TO (\((day + 1) * 1440))")
            try connection.script(
                "CREATE TABLE IF NOT EXISTS fleet_batches_\(suffix) PARTITION OF fleet_batches "
                    + "FOR VALUES FROM ('\(from)') TO ('\(to)')")
            try connection.script(
                "CREATE TABLE IF NOT EXISTS fleet_positions_\(suffix) PARTITION OF fleet_positions "
                    + "FOR VALUES FROM ('\(from) 00:00:00+00') TO ('\(to) 00:00:00+00')")
        }
    }

    /// Writes `items` in one transaction: each batch once (one already there is counted as a duplicate and nothing
    /// of it is written again), its positions, the boats' newest state. Throws with nothing written.
    func write(_ items: [Item]) throws(StoreError) -> Written {
        var batches: [(UplinkBatch, Double, String?)] = []
        var links: [(String, Bool, Double)] = []
        var alarms: [String: (String, Double)] = [:]
        for item in items {
            switch item {
            case .batch(let batch, let received, let raw): batches.append((batch, received, raw))
            case .online(let boat, let online, let time): links.append((boat, online, time))
            case .alarms(let boat, let json, let time):
                if let kept = alarms[boat], kept.1 > time { continue }
                alarms[boat] = (json, time)
            }
        }
        var written = Written()
        try connection.transaction { () throws(StoreError) in
            days.removeAll(keepingCapacity: true)
            var prepared:
                [(batch: UplinkBatch, received: Double, first: Double?, last: Double?, day: Int, raw: String?)] = []
            for (batch, received, raw) in batches {
                let times = batch.samples.compactMap { SignalKTime.unixTime($0.timestamp) }
                let first = times.min()
                prepared.append((batch, received, first, times.max(), Self.day(first ?? received), raw))
            }
            try ensurePartitions(Set(prepared.map { $0.day }))
            var fresh: Set<String> = []
            for chunk in Self.chunks(prepared, of: 400) {
                var sql =
                    "INSERT INTO fleet_batches (boat, seq, day, received, first_time, last_time, count, thinned, "
                    + "alarms, late, batch) VALUES "
                var parameters: [SQLValue] = []
                for (index, entry) in chunk.enumerated() {
                    let n = index * 11
                    if index > 0 { sql += ", " }
                    let day = dialect == .postgres ? "$\(n + 3)::date" : "$\(n + 3)"
                    let batchColumn = dialect == .postgres ? "$\(n + 11)::jsonb" : "$\(n + 11)"
                    sql +=
                        "($\(n + 1), $\(n + 2), \(day), \(time(n + 4)), \(time(n + 5)), \(time(n + 6)), $\(n + 7), "
                        + "$\(n + 8), $\(n + 9), \(flag(n + 10)), \(batchColumn))"
                    parameters += [
                        .text(entry.batch.boat), .integer(Int64(entry.batch.sequence)), .text(Self.date(entry.day)),
                        .real(entry.received), entry.first.map { .real($0) } ?? .null,
                        entry.last.map { .real($0) } ?? .null, .integer(Int64(entry.batch.count)),
                        .integer(Int64(entry.batch.thinned)), .integer(Int64(entry.batch.alarms)),
                        boolean(entry.batch.late), .text(entry.raw ?? entry.batch.json),
                    ]
                }
                sql += " ON CONFLICT DO NOTHING RETURNING boat, seq"
                for row in try connection.run(sql, parameters) {
                    if let boat = row[0], let seq = row[1] { fresh.insert(boat + "/" + seq) }
                }
            }
            var result = Written()
            var points: [(String, Double, UInt64, Double, Double)] = []
            var newest:
                [String: (
                    first: Double, last: Double, time: Double?, latitude: Double?, longitude: Double?,
                    batches: Int, lastBatch: UInt64
                )] = [:]
            for entry in prepared {
                let key = entry.batch.boat + "/" + String(entry.batch.sequence)
                guard fresh.remove(key) != nil else {
                    result.duplicates += 1
                    continue
                }
                result.batches += 1
                var boat =
                    newest[entry.batch.boat]
                    ?? (entry.received, entry.received, nil, nil, nil, 0, entry.batch.sequence)
                boat.first = min(boat.first, entry.received)
                boat.last = max(boat.last, entry.received)
                boat.batches += 1
                boat.lastBatch = max(boat.lastBatch, entry.batch.sequence)
                for sample in entry.batch.samples where sample.path == "navigation.position" {
                    guard case .position(let latitude, let longitude) = sample.value,
                        let when = SignalKTime.unixTime(sample.timestamp), latitude.isFinite, longitude.isFinite,
                        abs(latitude) <= 90, abs(longitude) <= 180
                    else { continue }
                    points.append((entry.batch.boat, when, entry.batch.sequence, latitude, longitude))
                    if boat.time.map({ when > $0 }) ?? true {
                        boat.time = when
                        boat.latitude = latitude
                        boat.longitude = longitude
                    }
                }
                newest[entry.batch.boat] = boat
            }
            result.positions = points.count
            for chunk in Self.chunks(points, of: 1000) {
                var sql = "INSERT INTO fleet_positions (boat, time, seq, "
                sql += dialect == .postgres ? "position) VALUES " : "latitude, longitude) VALUES "
                var parameters: [SQLValue] = []
                for (index, point) in chunk.enumerated() {
                    let n = index * 5
                    if index > 0 { sql += ", " }
                    if dialect == .postgres {
                        sql +=
                            "($\(n + 1), to_timestamp($\(n + 2)), $\(n + 3), "
                            + "ST_SetSRID(ST_MakePoint($\(n + 5), $\(n + 4)), 4326)::geography)"
                    } else {
                        sql += "($\(n + 1), $\(n + 2), $\(n + 3), $\(n + 4), $\(n + 5))"
                    }
                    parameters += [
                        .text(point.0), .real(point.1), .integer(Int64(point.2)), .real(point.3), .real(point.4),
                    ]
                }
                try connection.run(sql, parameters)
            }
            // The boats' rows in one order, so that two workers never wait on each other in a circle.
            // The minute track: a boat's first point in each minute, what a long replay draws.
            var minutes: Set<String> = []
            var track: [(String, Int, Double, Double, Double)] = []
            for point in points {
                let minute = Int((point.1 / 60).rounded(.down))
                if minutes.insert(point.0 + "/" + String(minute)).inserted {
                    track.append((point.0, minute, point.1, point.3, point.4))
                }
            }
            for chunk in Self.chunks(track, of: 1000) {
                var sql = "INSERT INTO fleet_track (boat, minute, time, latitude, longitude) VALUES "
                var parameters: [SQLValue] = []
                for (index, point) in chunk.enumerated() {
                    let n = index * 5
                    if index > 0 { sql += ", " }
                    sql += "($\(n + 1), $\(n + 2), \(time(n + 3)), $\(n + 4), $\(n + 5))"
                    parameters += [
                        .text(point.0), .integer(Int64(point.1)), .real(point.2), .real(point.3), .real(point.4),
                    ]
                }
                try connection.run(sql + " ON CONFLICT DO NOTHING", parameters)
            }
            // One statement for every boat of the write, in one order (two workers never wait on each other in a
            // circle); a boat once in it (its batches gathered above).
            for chunk in Self.chunks(newest.keys.sorted(), of: 500) {
                var sql =
                    "INSERT INTO fleet_boats (boat, first_heard, last_heard, last_time, latitude, longitude, batches, "
                    + "last_batch) VALUES "
                var parameters: [SQLValue] = []
                for (index, boat) in chunk.enumerated() {
                    let entry = newest[boat]!
                    let n = index * 8
                    if index > 0 { sql += ", " }
                    sql +=
                        "($\(n + 1), \(time(n + 2)), \(time(n + 3)), \(time(n + 4)), $\(n + 5), $\(n + 6), $\(n + 7), "
                        + "$\(n + 8))"
                    parameters += [
                        .text(boat), .real(entry.first), .real(entry.last), entry.time.map { .real($0) } ?? .null,
                        entry.latitude.map { .real($0) } ?? .null, entry.longitude.map { .real($0) } ?? .null,
                        .integer(Int64(entry.batches)), .integer(Int64(entry.lastBatch)),
                    ]
                }
                sql +=
                    " ON CONFLICT (boat) DO UPDATE SET "
                    + "last_heard = CASE WHEN excluded.last_heard > fleet_boats.last_heard "
                    + "THEN excluded.last_heard ELSE fleet_boats.last_heard END, "
                    + "batches = fleet_boats.batches + excluded.batches, "
                    + "last_batch = CASE WHEN fleet_boats.last_batch IS NULL "
                    + "OR excluded.last_batch > fleet_boats.last_batch "
                    + "THEN excluded.last_batch ELSE fleet_boats.last_batch END, "
                    + "latitude = CASE WHEN excluded.last_time IS NOT NULL AND (fleet_boats.last_time IS NULL "
                    + "OR excluded.last_time > fleet_boats.last_time) THEN excluded.latitude "
                    + "ELSE fleet_boats.latitude END, "
                    + "longitude = CASE WHEN excluded.last_time IS NOT NULL AND (fleet_boats.last_time IS NULL "
                    + "OR excluded.last_time > fleet_boats.last_time) THEN excluded.longitude "
                    + "ELSE fleet_boats.longitude END, "
                    + "last_time = CASE WHEN excluded.last_time IS NOT NULL AND (fleet_boats.last_time IS NULL "
                    + "OR excluded.last_time > fleet_boats.last_time) THEN excluded.last_time "
                    + "ELSE fleet_boats.last_time END"
                try connection.run(sql, parameters)
            }
            for (boat, online, at) in links.sorted(by: { ($0.0, $0.2) < ($1.0, $1.2) }) {
                try connection.run(
                    "INSERT INTO fleet_links (boat, time, online) VALUES ($1, \(time(2)), \(flag(3)))",
                    [.text(boat), .real(at), boolean(online)])
                try connection.run(
                    "INSERT INTO fleet_boats (boat, first_heard, last_heard, online, online_changed) "
                        + "VALUES ($1, \(time(2)), \(time(2)), \(flag(3)), \(time(2))) ON CONFLICT (boat) DO UPDATE SET "
                        + "online = excluded.online, online_changed = excluded.online_changed",
                    [.text(boat), .real(at), boolean(online)])
            }
            for boat in alarms.keys.sorted() {
                let (json, at) = alarms[boat]!
                try connection.run(
                    "INSERT INTO fleet_boats (boat, first_heard, last_heard, alarms) VALUES ($1, \(time(2)), "
                        + "\(time(2)), $3\(dialect == .postgres ? "::jsonb" : "")) "
                        + "ON CONFLICT (boat) DO UPDATE SET alarms = excluded.alarms",
                    [.text(boat), .real(at), .text(json)])
            }
            written = result
        }
        return written
    }

    /// A worker's counters, for what to watch (`fleet_workers`).
    func report(
        worker: String, at time: Double, messages: Int, batches: Int, duplicates: Int, refused: Int,
        lag: Double?
    ) throws(StoreError) {
        try connection.run(
            "INSERT INTO fleet_workers (worker, heard, messages, batches, duplicates, refused, lag) "
                + "VALUES ($1, \(self.time(2)), $3, $4, $5, $6, $7) ON CONFLICT (worker) DO UPDATE SET "
                + "heard = excluded.heard, messages = excluded.messages, batches = excluded.batches, "
                + "duplicates = excluded.duplicates, refused = excluded.refused, lag = excluded.lag",
            [
                .text(worker), .real(time), .integer(Int64(messages)), .integer(Int64(batches)),
                .integer(Int64(duplicates)), .integer(Int64(refused)), lag.map { .real($0) } ?? .null,
            ])
    }

    static func chunks<T>(_ items: [T], of size: Int) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: size).map { items[$0..<min($0 + size, items.count)] }
    }

    // MARK: Reading

    private func epoch(_ column: String) -> String {
        dialect == .postgres ? "extract(epoch from \(column))::double precision" : column
    }

    /// Batches stored since `received` (UNIX seconds), oldest first, at most `limit`: (received, boat, number, the
    /// batch's JSON).
    func batches(since received: Double, limit: Int) throws(StoreError) -> [(Double, String, Int64, String)] {
        try connection.run(
            "SELECT \(epoch("received")), boat, seq, batch FROM fleet_batches WHERE received > \(time(1)) "
                + "ORDER BY received LIMIT $2", [.real(received), .integer(Int64(limit))]
        ).compactMap { row in
            guard let received = row[0].flatMap({ Double($0) }), let boat = row[1],
                let seq = row[2].flatMap({ Int64($0) }), let batch = row[3]
            else { return nil }
            return (received, boat, seq, batch)
        }
    }

    /// The first and last time of a position kept (UNIX seconds), on one UTC day (days since 1970) or on any; nil
    /// when there is none.
    func span(day: Int? = nil) throws(StoreError) -> (Double, Double)? {
        var sql = "SELECT \(epoch("min(time)")), \(epoch("max(time)")) FROM fleet_track"
        var parameters: [SQLValue] = []
        if let day {
            sql += " WHERE minute >= $1 AND minute < $2"
            parameters = [.integer(Int64(day) * 1440), .integer(Int64(day + 1) * 1440)]
        }
        let row = try connection.run(sql, parameters).first
        guard let first = row?[0].flatMap({ Double($0) }), let last = row?[1].flatMap({ Double($0) }) else {
            return nil
        }
        // The last position may be up to a minute after the minute track's last point.
        let end = try connection.run(
            "SELECT \(epoch("max(time)")) FROM fleet_positions WHERE time >= \(time(1)) AND time < \(time(2))",
            [.real(last), .real(last + 60)]
        ).first?[0].flatMap { Double($0) }
        return (first, max(last, end ?? last))
    }

    /// The UTC days (days since 1970) with positions kept, newest first.
    func daysKept() throws(StoreError) -> [Int] {
        guard dialect == .postgres else {
            return try connection.run(
                "SELECT DISTINCT minute / 1440 AS day FROM fleet_track ORDER BY day DESC LIMIT 1000"
            ).compactMap { $0[0].flatMap { Int($0) } }
        }
        // PostgreSQL: the day partitions the minute track has (made when a day's first point came), not a scan.
        return try connection.run(
            "SELECT substr(c.relname, 13) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                + "WHERE i.inhparent = 'fleet_track'::regclass AND c.reltuples <> 0"
        ).compactMap { row in
            row[0].flatMap { text in
                guard text.utf8.count == 8 else { return nil }
                return SignalKTime.unixTime(
                    String(text.prefix(4)) + "-" + String(text.dropFirst(4).prefix(2)) + "-" + String(text.suffix(2))
                        + "T00:00:00Z")
            }.map { FleetStore.day($0) }
        }.sorted(by: >)
    }

    /// A boat's batch numbers kept: how many, the lowest, the highest.
    func batchNumbers(boat: String) throws(StoreError) -> (count: Int, first: Int64?, last: Int64?) {
        let row = try connection.run(
            "SELECT count(*), min(seq), max(seq) FROM fleet_batches WHERE boat = $1", [.text(boat)]
        ).first
        return (row?[0].flatMap { Int($0) } ?? 0, row?[1].flatMap { Int64($0) }, row?[2].flatMap { Int64($0) })
    }

    /// Every boat's link state and alarms: (boat, online, alarms JSON).
    func boats() throws(StoreError) -> [(String, Bool?, String?)] {
        try connection.run("SELECT boat, online, alarms FROM fleet_boats ORDER BY boat").compactMap { row in
            guard let boat = row[0] else { return nil }
            let online = row[1].map { $0 == "t" || $0 == "1" || $0 == "true" }
            return (boat, online, row[2])
        }
    }

    /// Positions of every boat (or one) between two UNIX times, each boat's in time order: at most `perBoat` points
    /// a boat, evenly through the span (the first and last kept).
    func tracks(
        from: Double, to: Double, boat: String? = nil, boats: [String] = [], perBoat: Int, every: Bool = false
    ) throws(StoreError) -> [(boat: String, points: [(Double, Double, Double)])] {
        // A span drawn at half a minute a point or coarser is read from the minute track, every k-th minute (k from
        // the span, no count or sort by the database beyond its key's order); a finer one from the positions, each
        // boat's every k-th point (and its last), k from how many it has in the span.
        let minutes = (to - from) / 60
        let coarse = !every && (to - from) / Double(max(2, perBoat)) >= 30
        var sql: String
        var parameters: [SQLValue]
        if coarse {
            let step = max(1, Int((minutes / Double(max(1, perBoat - 1))).rounded(.up)))
            sql =
                "SELECT boat, \(epoch("time")) AS t, latitude, longitude FROM fleet_track "
                + "WHERE minute >= $1 AND minute <= $2 AND minute % $3 = 0"
            parameters = [
                .integer(Int64((from / 60).rounded(.down))), .integer(Int64((to / 60).rounded(.down))),
                .integer(Int64(step)),
            ]
            if let boat {
                sql += " AND boat = $4"
                parameters.append(.text(boat))
            } else if !boats.isEmpty {
                sql += " AND boat IN (" + boats.indices.map { "$\($0 + 4)" }.joined(separator: ", ") + ")"
                for id in boats { parameters.append(.text(id)) }
            }
            sql += " ORDER BY boat, minute"
        } else {
            let columns =
                dialect == .sqlite
                ? "boat, time AS t, latitude, longitude"
                : "boat, \(epoch("time")) AS t, ST_Y(position::geometry) AS latitude, "
                    + "ST_X(position::geometry) AS longitude"
            var filter = "time >= \(time(1)) AND time <= \(time(2))"
            parameters = [.real(from), .real(to)]
            if let boat {
                filter += " AND boat = $3"
                parameters.append(.text(boat))
            } else if !boats.isEmpty {
                filter += " AND boat IN (" + boats.indices.map { "$\($0 + 3)" }.joined(separator: ", ") + ")"
                for id in boats { parameters.append(.text(id)) }
            }
            parameters.append(.integer(Int64(max(2, perBoat))))
            let k = "$\(parameters.count)"
            sql =
                "SELECT boat, t, latitude, longitude FROM (SELECT \(columns), "
                + "row_number() OVER (PARTITION BY boat ORDER BY time) - 1 AS n, "
                + "count(*) OVER (PARTITION BY boat) AS c FROM fleet_positions WHERE \(filter)) AS points "
                + "WHERE n % (CASE WHEN c <= \(k) THEN 1 ELSE (c + \(k) - 3) / (\(k) - 1) END) = 0 OR n = c - 1 "
                + "ORDER BY boat, t"
        }
        var out: [(boat: String, points: [(Double, Double, Double)])] = []
        var current: String?
        var points: [(Double, Double, Double)] = []
        func flush() {
            if let current, !points.isEmpty { out.append((current, FleetModel.thinned(points, to: perBoat))) }
            points.removeAll(keepingCapacity: true)
        }
        for row in try connection.run(sql, parameters) {
            guard let id = row[0], let t = row[1].flatMap({ Double($0) }), let lat = row[2].flatMap({ Double($0) }),
                let lon = row[3].flatMap({ Double($0) })
            else { continue }
            if id != current {
                flush()
                current = id
            }
            if let last = points.last, last.0 == t { continue }
            points.append((t, lat, lon))
        }
        flush()
        return out
    }

    /// The boats with a position between two times (from the minute track: a boat a minute at most).
    func boatsHeard(from: Double, to: Double) throws(StoreError) -> [String] {
        try connection.run(
            "SELECT DISTINCT boat FROM fleet_track WHERE minute >= $1 AND minute <= $2 ORDER BY boat",
            [.integer(Int64((from / 60).rounded(.down))), .integer(Int64((to / 60).rounded(.down)))]
        ).compactMap { $0[0] }
    }
}
