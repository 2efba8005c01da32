import NMEA

/// An output's rate limits: per address pattern, the least seconds between two sentences of one kind
/// (``SentenceKind``: `*MWV` limits apparent and true wind each, not the two together).
public struct RateLimiter: Sendable {
    public let limits: [(pattern: AddressPattern, interval: Double)]
    /// Sentences held back since the start.
    public private(set) var limited = 0
    private var lastSent: [SentenceKind: Double] = [:]

    public init(limits: [(pattern: String, interval: Double)]) {
        self.limits = limits.map { (AddressPattern($0.pattern), $0.interval) }
    }

    /// Whether `sentence` may go at `now` (seconds), noting it when it may.
    public mutating func admits(_ sentence: Sentence, now: Double) -> Bool {
        guard !limits.isEmpty else { return true }
        let address = sentence.address
        guard let limit = limits.first(where: { $0.pattern.matches(address) }) else { return true }
        let kind = sentence.kind
        if let last = lastSent[kind], now - last < limit.interval {
            limited += 1
            return false
        }
        lastSent[kind] = now
        return true
    }
}
