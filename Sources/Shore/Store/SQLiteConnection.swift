import CPosix
import CSQLite
import Gateway
import Platform

/// One read-write connection to a SQLite file (through the charts' ``SQLite`` table): the committee laptop's store. WAL, so the web side reads while a
/// worker writes; a writer waits up to 10 s for another's transaction.
final class SQLiteConnection: SQLConnection {
    let begin = "BEGIN IMMEDIATE"
    private let lib: SQLite
    private let database: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(path: String) throws(StoreError) {
        guard let lib = SQLite.load() else { throw StoreError("libsqlite3 is not installed") }
        self.lib = lib
        var database: OpaquePointer?
        let code = lib.open(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let database else {
            let why = database.flatMap { lib.errorMessage($0) }.map { String(cString: $0) } ?? "error \(code)"
            _ = lib.close(database)
            throw StoreError("SQLite: \(path): \(why)")
        }
        self.database = database
        _ = lib.busyTimeout(database, 10_000)
        try script("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
    }

    deinit {
        for statement in statements.values { _ = lib.finalize(statement) }
        _ = lib.close(database)
    }

    private var why: String { lib.errorMessage(database).map { String(cString: $0) } ?? "error" }

    func script(_ sql: String) throws(StoreError) {
        guard lib.exec(database, sql, nil, nil, nil) == SQLITE_OK else { throw StoreError("SQLite: " + why) }
    }

    /// `$1`, `$2`... as SQLite's `?1`, `?2`...
    static func numbered(_ sql: String) -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count)
        var previousDollar = false
        for character in sql {
            if previousDollar {
                previousDollar = false
                out.append(character.isNumber ? "?" : "$")
            }
            if character == "$" {
                previousDollar = true
                continue
            }
            out.append(character)
        }
        if previousDollar { out.append("$") }
        return out
    }

    @discardableResult
    func run(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [[String?]] {
        let statement: OpaquePointer
        if let kept = statements[sql] {
            statement = kept
        } else {
            var made: OpaquePointer?
            guard lib.prepare(database, Self.numbered(sql), -1, &made, nil) == SQLITE_OK, let made else {
                throw StoreError("SQLite: " + why)
            }
            // The few statements the store repeats are kept prepared; a many-row statement's text varies by rows.
            if statements.count < 64 { statements[sql] = made }
            statement = made
        }
        defer { if statements[sql] == nil { _ = lib.finalize(statement) } else { _ = lib.reset(statement) } }
        for (index, value) in parameters.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .text(let text):
                _ = lib.bindText(statement, position, text, -1, OpaquePointer(bitPattern: -1))
            case .real(let number):
                _ = number.isFinite ? lib.bindDouble(statement, position, number) : lib.bindNull(statement, position)
            case .integer(let number): _ = lib.bindInt64(statement, position, number)
            case .null: _ = lib.bindNull(statement, position)
            }
        }
        var rows: [[String?]] = []
        while true {
            let code = lib.step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw StoreError("SQLite: " + why) }
            let columns = lib.columnCount(statement)
            var row: [String?] = []
            for column in 0..<columns {
                if lib.columnType(statement, column) == SQLITE_NULL {
                    row.append(nil)
                } else {
                    row.append(lib.columnText(statement, column).map { String(cString: $0) })
                }
            }
            rows.append(row)
        }
        return rows
    }
}
