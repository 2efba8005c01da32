import CPosix
import Gateway
import Platform

/// libpq (Debian's `libpq5`), looked up with dlopen(3) when `telltale fleet --store postgres://...` asks for it: no
/// header is needed (its connection and result are opaque, its statuses are ints), and nothing else maps it.
struct LibPQ {
    typealias Connection = OpaquePointer
    typealias Result = OpaquePointer
    typealias NoticeProcessor = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void

    let connect: @convention(c) (UnsafePointer<CChar>?) -> Connection?
    let status: @convention(c) (Connection?) -> Int32
    let errorMessage: @convention(c) (Connection?) -> UnsafePointer<CChar>?
    let finish: @convention(c) (Connection?) -> Void
    let reset: @convention(c) (Connection?) -> Void
    let exec: @convention(c) (Connection?, UnsafePointer<CChar>?) -> Result?
    let execParams:
        @convention(c) (
            Connection?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?, UnsafePointer<UnsafePointer<CChar>?>?,
            UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
        ) -> Result?
    let resultStatus: @convention(c) (Result?) -> Int32
    let resultError: @convention(c) (Result?) -> UnsafePointer<CChar>?
    let tuples: @convention(c) (Result?) -> Int32
    let fields: @convention(c) (Result?) -> Int32
    let value: @convention(c) (Result?, Int32, Int32) -> UnsafePointer<CChar>?
    let isNull: @convention(c) (Result?, Int32, Int32) -> Int32
    let clear: @convention(c) (Result?) -> Void
    let setNoticeProcessor: @convention(c) (Connection?, NoticeProcessor?, UnsafeMutableRawPointer?) -> NoticeProcessor?

    static let connectionOK: Int32 = 0
    static let commandOK: Int32 = 1
    static let tuplesOK: Int32 = 2

    static let shared: LibPQ? = {
        do throws(DynamicLibrary.Failure) {
            let library = try DynamicLibrary.open(["libpq.so.5", "libpq.so"])
            func function<T>(_ name: String, _ type: T.Type) throws(DynamicLibrary.Failure) -> T {
                try library.function(name, as: type)
            }
            return LibPQ(
                connect: try function("PQconnectdb", (@convention(c) (UnsafePointer<CChar>?) -> Connection?).self),
                status: try function("PQstatus", (@convention(c) (Connection?) -> Int32).self),
                errorMessage: try function(
                    "PQerrorMessage", (@convention(c) (Connection?) -> UnsafePointer<CChar>?).self),
                finish: try function("PQfinish", (@convention(c) (Connection?) -> Void).self),
                reset: try function("PQreset", (@convention(c) (Connection?) -> Void).self),
                exec: try function("PQexec", (@convention(c) (Connection?, UnsafePointer<CChar>?) -> Result?).self),
                execParams: try function(
                    "PQexecParams",
                    (@convention(c) (
                        Connection?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt32>?,
                        UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
                    ) -> Result?).self),
                resultStatus: try function("PQresultStatus", (@convention(c) (Result?) -> Int32).self),
                resultError: try function(
                    "PQresultErrorMessage", (@convention(c) (Result?) -> UnsafePointer<CChar>?).self),
                tuples: try function("PQntuples", (@convention(c) (Result?) -> Int32).self),
                fields: try function("PQnfields", (@convention(c) (Result?) -> Int32).self),
                value: try function(
                    "PQgetvalue", (@convention(c) (Result?, Int32, Int32) -> UnsafePointer<CChar>?).self),
                isNull: try function("PQgetisnull", (@convention(c) (Result?, Int32, Int32) -> Int32).self),
                clear: try function("PQclear", (@convention(c) (Result?) -> Void).self),
                setNoticeProcessor: try function(
                    "PQsetNoticeProcessor",
                    (@convention(c) (Connection?, NoticeProcessor?, UnsafeMutableRawPointer?) -> NoticeProcessor?)
                        .self))
        } catch {
            return nil
        }
    }()
}

/// One connection to PostgreSQL. A connection lost (the server restarted) is made again once before a statement
/// fails; the caller's transaction, if one was open, fails whole and is tried again by the caller.
final class PostgresConnection: SQLConnection {
    let begin = "BEGIN"
    private let lib: LibPQ
    private let handle: LibPQ.Connection

    /// `url` as libpq takes it: `postgres://user:password@host:port/database?...`, or `key=value` words.
    init(_ url: String) throws(StoreError) {
        guard let lib = LibPQ.shared else { throw StoreError("libpq is not installed (apt install libpq5)") }
        self.lib = lib
        guard let handle = lib.connect(url) else { throw StoreError("libpq: no connection") }
        self.handle = handle
        guard lib.status(handle) == LibPQ.connectionOK else {
            let why = lib.errorMessage(handle).map { String(cString: $0) } ?? "cannot connect"
            lib.finish(handle)
            throw StoreError("PostgreSQL: " + PostgresConnection.trimmed(why))
        }
        // NOTICEs ("already exists, skipping") are not the log's business.
        _ = lib.setNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { lib.finish(handle) }

    static func trimmed(_ text: String) -> String {
        var text = text
        while let last = text.last, last == "\n" || last == " " { text.removeLast() }
        return text
    }

    func script(_ sql: String) throws(StoreError) {
        try checked(lib.exec(handle, sql))
    }

    @discardableResult
    func run(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [[String?]] {
        if parameters.isEmpty { return try checked(lib.exec(handle, sql)) }
        let texts: [String?] = parameters.map { value in
            switch value {
            case .text(let text): text
            case .real(let number): number.isFinite ? String(number) : nil
            case .integer(let number): String(number)
            case .null: nil
            }
        }
        var pointers: [UnsafeMutablePointer<CChar>?] = texts.map { $0.map { strdupText($0) } ?? nil }
        defer { for pointer in pointers { free(pointer) } }
        let result = pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { values in
                lib.execParams(handle, sql, Int32(buffer.count), nil, values, nil, nil, 0)
            }
        }
        return try checked(result)
    }

    @discardableResult
    private func checked(_ result: LibPQ.Result?) throws(StoreError) -> [[String?]] {
        defer { lib.clear(result) }
        let status = result.map { lib.resultStatus($0) } ?? -1
        guard status == LibPQ.commandOK || status == LibPQ.tuplesOK else {
            let why =
                result.flatMap { lib.resultError($0) }.map { String(cString: $0) }
                ?? lib.errorMessage(handle).map { String(cString: $0) } ?? "failed"
            if lib.status(handle) != LibPQ.connectionOK { lib.reset(handle) }
            throw StoreError("PostgreSQL: " + PostgresConnection.trimmed(why))
        }
        guard status == LibPQ.tuplesOK, let result else { return [] }
        let rows = lib.tuples(result)
        let columns = lib.fields(result)
        var out: [[String?]] = []
        out.reserveCapacity(Int(rows))
        for row in 0..<rows {
            var line: [String?] = []
            line.reserveCapacity(Int(columns))
            for column in 0..<columns {
                if lib.isNull(result, row, column) != 0 {
                    line.append(nil)
                } else {
                    line.append(lib.value(result, row, column).map { String(cString: $0) })
                }
            }
            out.append(line)
        }
        return out
    }
}

/// A C copy of `text` (freed by the caller).
func strdupText(_ text: String) -> UnsafeMutablePointer<CChar>? {
    text.withCString { strdup($0) }
}
