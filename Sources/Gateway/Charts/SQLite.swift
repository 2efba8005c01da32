import CSQLite
import Platform

/// The SQLite functions Telltale uses, looked up in libsqlite3 with dlopen(3) when first needed: by the charts (the first
/// time a chart is asked for: read-only connections, ``connect(_:)``) and by `telltale fleet`'s store
/// (`SQLiteConnection`, which writes). Every call is on its loop's thread; connections are opened without SQLite's
/// mutexes.
package struct SQLite {
    package let open:
        @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?) ->
            Int32
    package let close: @convention(c) (OpaquePointer?) -> Int32
    package let prepare:
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?,
            UnsafeMutablePointer<UnsafePointer<CChar>?>?
        ) -> Int32
    package let bindInt: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    package let step: @convention(c) (OpaquePointer?) -> Int32
    package let columnBlob: @convention(c) (OpaquePointer?, Int32) -> UnsafeRawPointer?
    package let columnText: @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<UInt8>?
    package let columnBytes: @convention(c) (OpaquePointer?, Int32) -> Int32
    package let reset: @convention(c) (OpaquePointer?) -> Int32
    package let finalize: @convention(c) (OpaquePointer?) -> Int32
    package let exec:
        @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    package let bindText: @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?, Int32, OpaquePointer?) -> Int32
    package let bindDouble: @convention(c) (OpaquePointer?, Int32, Double) -> Int32
    package let bindInt64: @convention(c) (OpaquePointer?, Int32, Int64) -> Int32
    package let bindNull: @convention(c) (OpaquePointer?, Int32) -> Int32
    package let columnCount: @convention(c) (OpaquePointer?) -> Int32
    package let columnType: @convention(c) (OpaquePointer?, Int32) -> Int32
    package let errorMessage: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    package let busyTimeout: @convention(c) (OpaquePointer?, Int32) -> Int32

    /// libsqlite3's functions, or nil when it is not installed (the chart list then says so).
    package static func load() -> SQLite? {
        do throws(DynamicLibrary.Failure) {
            let library = try DynamicLibrary.open(["libsqlite3.so.0", "libsqlite3.so"])
            return SQLite(
                open: try library.function(
                    "sqlite3_open_v2",
                    as: (@convention(c) (
                        UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?
                    ) -> Int32).self),
                close: try library.function("sqlite3_close_v2", as: (@convention(c) (OpaquePointer?) -> Int32).self),
                prepare: try library.function(
                    "sqlite3_prepare_v2",
                    as: (@convention(c) (
                        OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?,
                        UnsafeMutablePointer<UnsafePointer<CChar>?>?
                    ) -> Int32).self),
                bindInt: try library.function(
                    "sqlite3_bind_int", as: (@convention(c) (OpaquePointer?, Int32, Int32) -> Int32).self),
                step: try library.function("sqlite3_step", as: (@convention(c) (OpaquePointer?) -> Int32).self),
                columnBlob: try library.function(
                    "sqlite3_column_blob", as: (@convention(c) (OpaquePointer?, Int32) -> UnsafeRawPointer?).self),
                columnText: try library.function(
                    "sqlite3_column_text", as: (@convention(c) (OpaquePointer?, Int32) -> UnsafePointer<UInt8>?).self),
                columnBytes: try library.function(
                    "sqlite3_column_bytes", as: (@convention(c) (OpaquePointer?, Int32) -> Int32).self),
                reset: try library.function("sqlite3_reset", as: (@convention(c) (OpaquePointer?) -> Int32).self),
                finalize: try library.function("sqlite3_finalize", as: (@convention(c) (OpaquePointer?) -> Int32).self),
                exec: try library.function(
                    "sqlite3_exec",
                    as: (@convention(c) (
                        OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?, OpaquePointer?, OpaquePointer?
                    ) -> Int32).self),
                bindText: try library.function(
                    "sqlite3_bind_text",
                    as: (@convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?, Int32, OpaquePointer?) -> Int32)
                        .self),
                bindDouble: try library.function(
                    "sqlite3_bind_double", as: (@convention(c) (OpaquePointer?, Int32, Double) -> Int32).self),
                bindInt64: try library.function(
                    "sqlite3_bind_int64", as: (@convention(c) (OpaquePointer?, Int32, Int64) -> Int32).self),
                bindNull: try library.function(
                    "sqlite3_bind_null", as: (@convention(c) (OpaquePointer?, Int32) -> Int32).self),
                columnCount: try library.function(
                    "sqlite3_column_count", as: (@convention(c) (OpaquePointer?) -> Int32).self),
                columnType: try library.function(
                    "sqlite3_column_type", as: (@convention(c) (OpaquePointer?, Int32) -> Int32).self),
                errorMessage: try library.function(
                    "sqlite3_errmsg", as: (@convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?).self),
                busyTimeout: try library.function(
                    "sqlite3_busy_timeout", as: (@convention(c) (OpaquePointer?, Int32) -> Int32).self))
        } catch {
            return nil
        }
    }

    /// A read-only connection with a small page cache (64 KiB) and no memory map: a chart of gigabytes costs the
    /// gateway kilobytes.
    package func connect(_ path: String) -> OpaquePointer? {
        var database: OpaquePointer?
        guard open(path, &database, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let database else {
            _ = close(database)
            return nil
        }
        _ = exec(database, "PRAGMA cache_size=-64; PRAGMA mmap_size=0; PRAGMA query_only=1;", nil, nil, nil)
        return database
    }

    package func statement(_ database: OpaquePointer, _ sql: String) -> OpaquePointer? {
        var statement: OpaquePointer?
        guard prepare(database, sql, -1, &statement, nil) == SQLITE_OK else { return nil }
        return statement
    }
}
