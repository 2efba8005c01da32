/// Keeps a log readable on a boat: a message of one id about one subject (``LogEvent/subject``) is let through at
/// most once per `interval`; the next one that gets through says what was held back meanwhile: each distinct text
/// and how often (the first three; a count of the others), so that nothing held back is lost from sight. Events
/// marked not throttled (the periodic summary) always pass. Pure: time comes in as an argument.
public struct LogLimiter {
    public var interval: Double
    private var last: [String: Held] = [:]

    /// What one id and subject held back since it last got through.
    private struct Held {
        var time: Double
        var texts: [(text: String, count: Int)] = []
        var total: Int { texts.reduce(0) { $0 + $1.count } }
    }

    public init(interval: Double = 30) {
        self.interval = interval
    }

    /// The event to log now, or nil to hold this one back.
    public mutating func admit(_ event: LogEvent, at now: Double) -> LogEvent? {
        guard event.throttled else { return event }
        let key = event.id + "\u{1F}" + event.subject
        if var held = last[key], now - held.time < interval {
            if let index = held.texts.firstIndex(where: { $0.text == event.message }) {
                held.texts[index].count += 1
            } else {
                held.texts.append((event.message, 1))
            }
            last[key] = held
            return nil
        }
        let held = last[key]
        last[key] = Held(time: now)
        guard let held, held.total > 0 else { return event }
        var admitted = event
        let seconds = Int((now - held.time).rounded())
        var parts = held.texts.prefix(3).map { "\"\($0.text)\" " + Self.times($0.count) }
        if held.texts.count > 3 {
            let others = held.texts.dropFirst(3).reduce(0) { $0 + $1.count }
            parts.append("and \(others) of \(held.texts.count - 3) other \(held.texts.count == 4 ? "text" : "texts")")
        }
        admitted.message += " (held back in the \(seconds) s before: " + parts.joined(separator: ", ") + ")"
        admitted.metadata.append((key: "held_back", value: "\(held.total)"))
        return admitted
    }

    static func times(_ count: Int) -> String {
        switch count {
        case 1: "once"
        case 2: "twice"
        default: "\(count) times"
        }
    }
}
