/// A value bound to a statement's parameter (`$1`, `$2`... in the text, in order: SQLite is given `?1`, `?2`...).
enum SQLValue: Equatable {
    case text(String)
    case real(Double)
    case integer(Int64)
    case null
}

/// Why the store refused or failed: the database's own words.
struct StoreError: Error, CustomStringConvertible {
    var text: String
    init(_ text: String) { self.text = text }
    var description: String { text }
}

/// The shore's store: one connection to PostgreSQL (libpq) or SQLite, statements with parameters, rows as text.
/// Blocking, for the shore's tools only (`telltale fleet`); the boat's daemon never opens one.
protocol SQLConnection: AnyObject {
    /// The statement that begins a transaction that will write (SQLite takes its write lock at once with it).
    var begin: String { get }
    /// Runs one statement; the rows it returns, each column as text (nil for NULL).
    @discardableResult
    func run(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [[String?]]
    /// Runs statements with no parameters, one after another.
    func script(_ sql: String) throws(StoreError)
}

extension SQLConnection {
    @discardableResult
    func run(_ sql: String) throws(StoreError) -> [[String?]] { try run(sql, []) }

    /// `body` in one transaction, committed when it returns, rolled back when it throws.
    func transaction(_ body: () throws(StoreError) -> Void) throws(StoreError) {
        try script(begin)
        do {
            try body()
            try script("COMMIT")
        } catch {
            try? script("ROLLBACK")
            throw error
        }
    }
}
