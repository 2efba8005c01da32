import Fleet
import Gateway
import Marine
import Platform
import SignalK

/// What `telltale fleet` keeps of every boat, in PostgreSQL (with PostGIS) or SQLite, the same tables in both:
///
/// - `fleet_batches`: every history batch a boat sent, each once (a key on boat and number; what a broker hands over
///   twice is counted as a duplicate), its JSON as the boat sent it, when it came and the span of its samples;
/// - `fleet_positions`: every position of those batches, a point a sample (a geography point in PostgreSQL);
/// - `fleet_track`: a boat's first position in each minute, what a long replay draws;
/// - `fleet_boats`: each boat's newest state: heard first and last, its link (`online`), its alarms, its last position
///   and batch;
/// - `fleet_links`: its link's ups and downs; `fleet_workers`: each ingest worker's counters;
/// - `shore_accounts`: who may look (name, role, boat, e-mail, the password's Argon2id string) and `shore_sessions`:
///   their logins (a token's SHA-256 digest, never the token), see ``FleetStore`` + Accounts; `shore_push`: the
///   phones that asked for the boat watch's pushes, and `shore_keys`: the shore's own keys (VAPID's), see + Push.
///
/// PostgreSQL's big tables are partitioned by UTC day (``PostgresSQL``), so a past race is dropped or archived as
/// whole tables. The schema is made and migrated by the program (`telltale_schema` holds its version), under a lock
/// so that several workers starting at once agree. Each engine's SQL is in its own file (``StoreSQL``).
final class FleetStore {
    let connection: SQLConnection
    let sql: StoreSQL

    static let version = 4

    /// `postgres://...` (or `postgresql://`), else a SQLite file's path.
    init(_ location: String) throws(StoreError) {
        if Self.isPostgres(location) {
            connection = try PostgresConnection(location)
            sql = PostgresSQL()
        } else {
            connection = try SQLiteConnection(path: location)
            sql = SQLiteSQL()
        }
        try migrate()
    }

    static func isPostgres(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// Where the store is, without its password (for the log).
    static func describe(_ location: String) -> String {
        guard location.hasPrefix("postgres"), let at = location.lastIndex(of: "@"),
            let colon = location.firstIndex(of: ":")
        else { return location }
        return String(location[..<colon]) + "://..." + String(location[at...])
    }

    private func migrate() throws(StoreError) {
        let steps = sql.migrations
        try connection.transaction { () throws(StoreError) in
            // One migrator at a time: the others wait here, then find the work done.
            if let lock = sql.migrationLock { try connection.run(lock) }
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
        if let query = sql.positionDays {
            let days = try connection.run(query)
            try ensurePartitions(Set(days.compactMap { $0[0].flatMap { Int($0) } }), locked: false)
        }
        try connection.script(
            "INSERT INTO fleet_track (boat, minute, time, latitude, longitude) SELECT boat, \(sql.minute("time")), "
                + "time, \(sql.latitude), \(sql.longitude) FROM fleet_positions ORDER BY boat, time "
                + "ON CONFLICT DO NOTHING")
    }

    /// Each day's tables made, where the engine partitions them (two workers making the same day's wait for each
    /// other on a lock, then find them made).
    func ensurePartitions(_ needed: Set<Int>, locked: Bool = true) throws(StoreError) {
        for day in needed.sorted() {
            let statements = sql.partitions(day: day)
            guard !statements.isEmpty else { return }
            if locked, let lock = sql.partitionLock { try connection.run(lock) }
            for statement in statements { try connection.script(statement) }
        }
    }

    /// The UTC day number (days since 1970) of a UNIX time.
    static func day(_ time: Double) -> Int { Int((time / 86_400).rounded(.down)) }

    /// A day number as `YYYY-MM-DD`.
    static func date(_ day: Int) -> String { String(SignalKTime.text(unixTime: Double(day) * 86_400).prefix(10)) }

    static func chunks<T>(_ items: [T], of size: Int) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: size).map { items[$0..<min($0 + size, items.count)] }
    }
}
