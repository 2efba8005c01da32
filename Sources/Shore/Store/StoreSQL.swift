/// The SQL that differs between the store's two engines, each engine's in one place (``PostgresSQL``,
/// ``SQLiteSQL``): the schema and its migrations, how a parameter is taken as a time, a flag, a date or JSON, how a
/// time is read back as UNIX seconds, where a position is kept, and what only PostgreSQL has (day partitions,
/// advisory locks). ``FleetStore`` writes every statement from these pieces and nowhere asks which engine it has.
protocol StoreSQL {
    /// Each schema version's statements, in order; a store at version N gets those after N.
    var migrations: [[String]] { get }
    /// A statement that holds one migrator (or one partition maker) at a time until the transaction ends; nil where
    /// the engine's own write lock does it (SQLite's `BEGIN IMMEDIATE`).
    var migrationLock: String? { get }
    var partitionLock: String? { get }
    /// The statements that make a UTC day's tables (days since 1970); none where tables are not partitioned.
    func partitions(day: Int) -> [String]
    /// The days a version 1 store has positions on, for version 2's migration to make their partitions first; nil
    /// where there are no partitions.
    var positionDays: String? { get }

    /// Parameter `$index` as a time (given as UNIX seconds), a flag (given as 0 or 1), a date (`YYYY-MM-DD`), JSON.
    func time(_ index: Int) -> String
    func flag(_ index: Int) -> String
    func date(_ index: Int) -> String
    func json(_ index: Int) -> String
    /// A time column read back as UNIX seconds.
    func epoch(_ column: String) -> String
    /// A time column's UTC minute (minutes since 1970).
    func minute(_ column: String) -> String

    /// The columns a position is written to after `boat, time, seq`, and one row's values for parameters
    /// `$first`...`$first + 4` (boat, UNIX time, number, latitude, longitude).
    var positionColumns: String { get }
    func positionRow(_ first: Int) -> String
    /// A kept position's latitude and longitude, as columns of `fleet_positions`.
    var latitude: String { get }
    var longitude: String { get }
    /// The UTC days (days since 1970) the minute track has points on, newest first: a statement whose rows are read
    /// by ``day(of:)``.
    var daysKept: String { get }
    func day(of row: [String?]) -> Int?
}

extension StoreSQL {
    /// A flag read back (PostgreSQL says `t`, SQLite `1`).
    func isTrue(_ text: String) -> Bool { text == "t" || text == "1" || text == "true" }
}
