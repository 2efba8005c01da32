/// What canboat's database says of a PGN: its name, the interval it is usually sent at and its default priority
/// (``CanboatPGNs/names``, in PGN order, looked up by bisection).
public enum PGNCatalog {
    static func entry(_ pgn: UInt32) -> (pgn: UInt32, name: StaticString, interval: Int, priority: UInt8)? {
        var low = 0
        var high = CanboatPGNs.names.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let entry = CanboatPGNs.names[middle]
            if entry.pgn == pgn { return entry }
            if entry.pgn < pgn { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// The PGN's name in canboat's database ("Wind Data"), or its number for one it does not know (a proprietary PGN).
    public static func name(_ pgn: UInt32) -> String {
        if isProprietary(pgn) { return "Proprietary (the maker's own)" }
        guard let entry = entry(pgn) else { return "PGN \(pgn)" }
        return entry.name.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the PGN is one of the ranges each manufacturer uses its own way (61184, 65280–65535, 126720,
    /// 130816–131071): what it holds depends on whose device sent it.
    public static func isProprietary(_ pgn: UInt32) -> Bool {
        pgn == 61184 || (65280...65535).contains(pgn) || pgn == 126720 || (130816...131071).contains(pgn)
    }

    /// Seconds between two messages of the PGN as usually sent; nil when it is sent on request or irregularly.
    public static func interval(_ pgn: UInt32) -> Double? {
        guard let entry = entry(pgn), entry.interval > 0 else { return nil }
        return Double(entry.interval) / 1000
    }

    /// The PGN's default priority (0 highest, 7 lowest); 6 for one the database does not know.
    public static func priority(_ pgn: UInt32) -> UInt8 { entry(pgn)?.priority ?? 6 }
}
