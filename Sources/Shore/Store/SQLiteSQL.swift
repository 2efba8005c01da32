/// The store's SQL for SQLite: the same tables unpartitioned, times as UNIX seconds, positions as two columns, JSON
/// as text; one writer at a time by SQLite's own lock (`BEGIN IMMEDIATE`).
struct SQLiteSQL: StoreSQL {
    let migrations = [
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
        [
            """
            CREATE TABLE shore_accounts (name text PRIMARY KEY, role text NOT NULL, boat text, email text, \
            hash text NOT NULL, created real NOT NULL)
            """,
            """
            CREATE TABLE shore_sessions (token text PRIMARY KEY, name text NOT NULL, created real NOT NULL, \
            seen real NOT NULL)
            """,
        ],
        [
            """
            CREATE TABLE shore_push (endpoint text PRIMARY KEY, name text NOT NULL, p256dh text NOT NULL, \
            auth text NOT NULL, created real NOT NULL)
            """,
            "CREATE TABLE shore_keys (name text PRIMARY KEY, value text NOT NULL)",
        ],
    ]

    let migrationLock: String? = nil
    let partitionLock: String? = nil
    func partitions(day: Int) -> [String] { [] }
    let positionDays: String? = nil

    func time(_ index: Int) -> String { "$\(index)" }
    func flag(_ index: Int) -> String { "$\(index)" }
    func date(_ index: Int) -> String { "$\(index)" }
    func json(_ index: Int) -> String { "$\(index)" }
    func epoch(_ column: String) -> String { column }
    func minute(_ column: String) -> String { "CAST(\(column) / 60 AS integer)" }

    let positionColumns = "latitude, longitude"
    func positionRow(_ n: Int) -> String { "($\(n), $\(n + 1), $\(n + 2), $\(n + 3), $\(n + 4))" }
    let latitude = "latitude"
    let longitude = "longitude"

    let daysKept = "SELECT DISTINCT minute / 1440 AS day FROM fleet_track ORDER BY day DESC LIMIT 1000"
    func day(of row: [String?]) -> Int? { row.first.flatMap { $0 }.flatMap { Int($0) } }
}
