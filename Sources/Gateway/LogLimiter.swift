/// Keeps a log readable on a boat: the same message (digits aside, so "reconnecting after 3 s" and "after 4 s" are
/// the same) is let through at most once per `interval`; the next one that gets through says how many were held
/// back. Pure: time comes in as an argument.
public struct LogLimiter: Sendable {
    public var interval: Double
    private var last: [String: (time: Double, suppressed: Int)] = [:]

    public init(interval: Double = 30) {
        self.interval = interval
    }

    /// The text to log now, or nil to hold this one back.
    public mutating func admit(_ message: String, at now: Double) -> String? {
        let key = String(message.unicodeScalars.filter { !("0"..."9").contains($0) })
        if let previous = last[key], now - previous.time < interval {
            last[key] = (previous.time, previous.suppressed + 1)
            return nil
        }
        let held = last[key]?.suppressed ?? 0
        last[key] = (now, 0)
        return held > 0 ? message + " (\(held) more like it held back)" : message
    }
}
