import SignalK

/// The store's SQL for PostgreSQL 15 with PostGIS: positions as geography points, the big tables partitioned by UTC
/// day (a past race dropped or archived as whole tables), advisory locks for the workers that start together.
struct PostgresSQL: StoreSQL {
    let migrations = [
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
        [
            """
            CREATE TABLE shore_accounts (name text PRIMARY KEY, role text NOT NULL, boat text, email text, \
            hash text NOT NULL, created timestamptz NOT NULL)
            """,
            """
            CREATE TABLE shore_sessions (token text PRIMARY KEY, name text NOT NULL, created timestamptz NOT NULL, \
            seen timestamptz NOT NULL)
            """,
        ],
        [
            """
            CREATE TABLE shore_push (endpoint text PRIMARY KEY, name text NOT NULL, p256dh text NOT NULL, \
            auth text NOT NULL, created timestamptz NOT NULL)
            """,
            "CREATE TABLE shore_keys (name text PRIMARY KEY, value text NOT NULL)",
        ],
    ]

    let migrationLock: String? = "SELECT pg_advisory_xact_lock(4711043)"
    let partitionLock: String? = "SELECT pg_advisory_xact_lock(4711044)"

    func partitions(day: Int) -> [String] {
        let from = FleetStore.date(day)
        let to = FleetStore.date(day + 1)
        let suffix = String(from.filter { $0 != "-" })
        return [
            "CREATE TABLE IF NOT EXISTS fleet_track_\(suffix) PARTITION OF fleet_track "
                + "FOR VALUES FROM (\(day * 1440)) TO (\((day + 1) * 1440))",
            "CREATE TABLE IF NOT EXISTS fleet_batches_\(suffix) PARTITION OF fleet_batches "
                + "FOR VALUES FROM ('\(from)') TO ('\(to)')",
            "CREATE TABLE IF NOT EXISTS fleet_positions_\(suffix) PARTITION OF fleet_positions "
                + "FOR VALUES FROM ('\(from) 00:00:00+00') TO ('\(to) 00:00:00+00')",
        ]
    }

    let positionDays: String? = "SELECT DISTINCT floor(extract(epoch from time) / 86400)::bigint FROM fleet_positions"

    func time(_ index: Int) -> String { "to_timestamp($\(index))" }
    func flag(_ index: Int) -> String { "($\(index) <> 0)" }
    func date(_ index: Int) -> String { "$\(index)::date" }
    func json(_ index: Int) -> String { "$\(index)::jsonb" }
    func epoch(_ column: String) -> String { "extract(epoch from \(column))::double precision" }
    func minute(_ column: String) -> String { "floor(extract(epoch from \(column)) / 60)::bigint" }

    let positionColumns = "position"
    func positionRow(_ n: Int) -> String {
        "($\(n), to_timestamp($\(n + 1)), $\(n + 2), ST_SetSRID(ST_MakePoint($\(n + 4), $\(n + 3)), 4326)::geography)"
    }
    let latitude = "ST_Y(position::geometry)"
    let longitude = "ST_X(position::geometry)"

    /// The day partitions the minute track has (made when a day's first point came), not a scan of its points.
    let daysKept =
        "SELECT substr(c.relname, 13) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
        + "WHERE i.inhparent = 'fleet_track'::regclass AND c.reltuples <> 0"

    func day(of row: [String?]) -> Int? {
        guard let text = row.first.flatMap({ $0 }), text.utf8.count == 8 else { return nil }
        let iso =
            String(text.prefix(4)) + "-" + String(text.dropFirst(4).prefix(2)) + "-" + String(text.suffix(2))
            + "T00:00:00Z"
        return SignalKTime.unixTime(iso).map { FleetStore.day($0) }
    }
}
