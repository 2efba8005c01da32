import CPosix
import CSQLite
import Platform

/// libsqlite3's functions a store that writes needs, looked up with dlopen(3) when `telltale fleet` opens its file.
struct SQLiteLibrary {
    typealias Database = OpaquePointer
    typealias Statement = OpaquePointer

    let open:
        @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?) ->
            Int32
    let close: @convention(c) (Database?) -> Int32
    let prepare:
        @convention(c) (
            Database?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?,
            UnsafeMutablePointer<UnsafePointer<CChar>?>?
        ) -> Int32
    let bindText: @convention(c) (Statement?, Int32, UnsafePointer<CChar>?, Int32, OpaquePointer?) -> Int32
    let bindDouble: @convention(c) (Statement?, Int32, Double) -> Int32
    let bindInt64: @convention(c) (Statement?, Int32, Int64) -> Int32
    let bindNull: @convention(c) (Statement?, Int32) -> Int32
    let step: @convention(c) (Statement?) -> Int32
    let columnCount: @convention(c) (Statement?) -> Int32
    let columnType: @convention(c) (Statement?, Int32) -> Int32
    let columnText: @convention(c) (Statement?, Int32) -> UnsafePointer<UInt8>?
    let finalize: @convention(c) (Statement?) -> Int32
    let errorMessage: @convention(c) (Database?) -> UnsafePointer<CChar>?
    let exec: @convention(c) (Database?, UnsafePointer<CChar>?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    let busyTimeout: @convention(c) (Database?, Int32) -> Int32
    let reset: @convention(c) (Statement?) -> Int32

    static let shared: SQLiteLibrary? = {
        do throws(DynamicLibrary.Failure) {
            let library = try DynamicLibrary.open(["libsqlite3.so.0", "libsqlite3.so"])
            func function<T>(_ name: String, _ type: T.Type) throws(DynamicLibrary.Failure) -> T {
                try library.function(name, as: type)
            }
            return SQLiteLibrary(
                open: try function(
                    "sqlite3_open_v2",
                    (@convention(c) (
                        UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?
                    ) -> Int32).self),
                close: try function("sqlite3_close_v2", (@convention(c) (Database?) -> Int32).self),
                prepare: try function(
                    "sqlite3_prepare_v2",
                    (@convention(c) (
                        Database?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?,
                        UnsafeMutablePointer<UnsafePointer<CChar>?>?
                    ) -> Int32).self),
                bindText: try function(
                    "sqlite3_bind_text",
                    (@convention(c) (Statement?, Int32, UnsafePointer<CChar>?, Int32, OpaquePointer?) -> Int32).self),
                bindDouble: try function(
                    "sqlite3_bind_double", (@convention(c) (Statement?, Int32, Double) -> Int32).self),
                bindInt64: try function(
                    "sqlite3_bind_int64", (@convention(c) (Statement?, Int32, Int64) -> Int32).self),
                bindNull: try function("sqlite3_bind_null", (@convention(c) (Statement?, Int32) -> Int32).self),
                step: try function("sqlite3_step", (@convention(c) (Statement?) -> Int32).self),
                columnCount: try function("sqlite3_column_count", (@convention(c) (Statement?) -> Int32).self),
                columnType: try function("sqlite3_column_type", (@convention(c) (Statement?, Int32) -> Int32).self),
                columnText: try function(
                    "sqlite3_column_text", (@convention(c) (Statement?, Int32) -> UnsafePointer<UInt8>?).self),
                finalize: try function("sqlite3_finalize", (@convention(c) (Statement?) -> Int32).self),
                errorMessage: try function(
                    "sqlite3_errmsg", (@convention(c) (Database?) -> UnsafePointer<CChar>?).self),
                exec: try function(
                    "sqlite3_exec",
                    (@convention(c) (Database?, UnsafePointer<CChar>?, OpaquePointer?, OpaquePointer?, OpaquePointer?)
                        -> Int32).self),
                busyTimeout: try function("sqlite3_busy_timeout", (@convention(c) (Database?, Int32) -> Int32).self),
                reset: try function("sqlite3_reset", (@convention(c) (Statement?) -> Int32).self))
        } catch {
            return nil
        }
    }()
}

/// One read-write connection to a SQLite file: the committee laptop's store. WAL, so the web side reads while a
/// worker writes; a writer waits up to 10 s for another's transaction.
final class SQLiteConnection: SQLConnection {
    let dialect = SQLDialect.sqlite
    private let lib: SQLiteLibrary
    private let database: SQLiteLibrary.Database
    private var statements: [String: SQLiteLibrary.Statement] = [:]

    init(path: String) throws(StoreError) {
        guard let lib = SQLiteLibrary.shared else { throw StoreError("libsqlite3 is not installed") }
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
        let statement: SQLiteLibrary.Statement
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
