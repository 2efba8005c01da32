/// Keeps a log readable on a boat: a message of one id about one subject (``LogEvent/subject``) is let through at
/// most once per `interval`; the next one that gets through says how many were held back. Events marked not
/// throttled (the periodic summary) always pass. Pure: time comes in as an argument.
public struct LogLimiter {
    public var interval: Double
    private var last: [String: (time: Double, suppressed: Int)] = [:]

    public init(interval: Double = 30) {
        self.interval = interval
    }

    /// The event to log now, or nil to hold this one back.
    public mutating func admit(_ event: LogEvent, at now: Double) -> LogEvent? {
        guard event.throttled else { return event }
        let key = event.id + "\u{1F}" + event.subject
        if let previous = last[key], now - previous.time < interval {
            last[key] = (previous.time, previous.suppressed + 1)
            return nil
        }
        let held = last[key]?.suppressed ?? 0
        last[key] = (now, 0)
        guard held > 0 else { return event }
        var admitted = event
        admitted.message += " (\(held) more like it held back)"
        admitted.metadata.append((key: "held_back", value: "\(held)"))
        return admitted
    }
}
