/// Keeps a log readable on a boat: a message of one id about one subject (``LogEvent/subject``) is let through at
/// most once per `interval`; the next one that gets through says what was held back meanwhile: each distinct text
/// and how often (the first three; a count of the others). When none comes, ``due(at:)`` says the last one held
/// back once the interval is over, so that nothing held back is lost from sight. Events marked not throttled (the
/// periodic summary) always pass. Pure: time comes in as an argument.
public struct LogLimiter {
    public var interval: Double
    private var last: [String: Held] = [:]

    /// What one id and subject held back since it last got through.
    private struct Held {
        var time: Double
        /// The text let through when it last got through.
        var said: String
        var texts: [(text: String, count: Int)] = []
        /// The last event held back (said by ``LogLimiter/due(at:)`` when no later one carries the others), and when.
        var latest: LogEvent?
        var latestAt = 0.0
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
            held.latest = event
            held.latestAt = now
            last[key] = held
            return nil
        }
        let held = last[key]
        last[key] = Held(time: now, said: event.message)
        guard let held, held.total > 0 else { return event }
        return Self.carrying(event, held.texts, since: held.time, now: now)
    }

    /// The messages held back whose interval is over with no later one of their id and subject to say them: for
    /// each, the last one held back, saying the others before it. Asked once a second; in the order their id and
    /// subject last got through. `all`: on stopping, every one held back, its interval over or not, but for the
    /// bare repeats of the text last said (a device tried again once a second says nothing new at the end).
    public mutating func due(at now: Double, all: Bool = false) -> [LogEvent] {
        var out: [(time: Double, key: String, event: LogEvent)] = []
        for (key, held) in last where held.total > 0 && (all || now - held.time >= interval) {
            guard let latest = held.latest else { continue }
            if all && now - held.time < interval && held.texts.allSatisfy({ $0.text == held.said }) { continue }
            var others = held.texts
            if let index = others.firstIndex(where: { $0.text == latest.message }) {
                others[index].count -= 1
                if others[index].count == 0 { others.remove(at: index) }
            }
            // The window stays where it was: the next one to come is news, let through at once (a link back up said
            // right after its being down was said late).
            last[key] = Held(time: held.time, said: latest.message)
            // Said late, and saying so: after what came since (a link down said after it came back) it is not news.
            var late = latest
            late.message += " (said \(Int((now - held.latestAt).rounded())) s late: held back by the log's limiter)"
            out.append((held.time, key, Self.carrying(late, others, since: held.time, now: now)))
        }
        out.sort { ($0.time, $0.key) < ($1.time, $1.key) }
        return out.map { $0.event }
    }

    /// `event` saying the `texts` held back since `since` (as it is when there are none).
    private static func carrying(
        _ event: LogEvent, _ texts: [(text: String, count: Int)], since: Double, now: Double
    ) -> LogEvent {
        let total = texts.reduce(0) { $0 + $1.count }
        guard total > 0 else { return event }
        var admitted = event
        let seconds = Int((now - since).rounded())
        var parts = texts.prefix(3).map { "\"\($0.text)\" " + Self.times($0.count) }
        if texts.count > 3 {
            let others = texts.dropFirst(3).reduce(0) { $0 + $1.count }
            parts.append("and \(others) of \(texts.count - 3) other \(texts.count == 4 ? "text" : "texts")")
        }
        admitted.message += " (held back in the \(seconds) s before: " + parts.joined(separator: ", ") + ")"
        admitted.metadata.append((key: "held_back", value: "\(total)"))
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
