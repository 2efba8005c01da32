/// When a reconnecting input or output tries again: soon after a first failure, then twice as long after each
/// failure that follows, up to a limit; soon again once it has worked. Pure: time comes in as an argument.
///
/// Every input that reconnects (serial, TCP, gpsd, a live IMU, the race button) keeps one, so they back off alike; so
/// does the fleet uplink's session. Here, with the pure maths, because the shell and the pure sessions share it.
public struct Backoff: Sendable {
    /// Seconds before the first retry, and the most between two.
    public let first: Double
    public let limit: Double
    private var delay: Double
    /// The monotonic time of the next try.
    public private(set) var retryAt = -Double.infinity
    /// When the current run of failures began; nil while it works.
    public private(set) var failingSince: Double?

    public init(first: Double = 0.1, limit: Double = 1) {
        self.first = first
        self.limit = max(limit, first)
        delay = first
    }

    /// Whether a try is due at `now`.
    public func isDue(_ now: Double) -> Bool { now >= retryAt }

    /// A try failed at `now`: the next is due after the current delay, which then doubles. True for the first
    /// failure of a run (the one worth a line in the log).
    @discardableResult
    public mutating func failed(at now: Double) -> Bool {
        let first = failingSince == nil
        if first { failingSince = now }
        retryAt = now + delay
        delay = min(delay * 2, limit)
        return first
    }

    /// A try worked: the delays start again from the first. True when it came after failures (a reconnect).
    @discardableResult
    public mutating func succeeded() -> Bool {
        let recovered = failingSince != nil
        failingSince = nil
        delay = first
        retryAt = -.infinity
        return recovered
    }
}
