import NMEA

/// An output's rate limits: per address pattern, the least seconds between two sentences of one kind
/// (``SentenceKind``: `*MWV` limits apparent and true wind each, not the two together).
public struct RateLimiter {
    public let limits: [(pattern: String, interval: Double)]
    /// Sentences held back since the start.
    public private(set) var limited = 0
    private var lastSent: [SentenceKind: Double] = [:]

    public init(limits: [(pattern: String, interval: Double)]) {
        self.limits = limits
    }

    /// Whether `sentence` may go at `now` (seconds), noting it when it may.
    public mutating func admits(_ sentence: Sentence, now: Double) -> Bool {
        guard !limits.isEmpty else { return true }
        let text = sentence.address.description
        guard let limit = limits.first(where: { AddressPattern.matches($0.pattern, text) }) else { return true }
        let kind = sentence.kind
        if let last = lastSent[kind], now - last < limit.interval {
            limited += 1
            return false
        }
        lastSent[kind] = now
        return true
    }
}
