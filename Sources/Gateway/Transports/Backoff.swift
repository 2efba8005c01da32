/// When a reconnecting input or output tries again: soon after a first failure, then twice as long after each
/// failure that follows, up to a limit; soon again once it has worked. Pure: time comes in as an argument.
///
/// Every input that reconnects (serial, TCP, gpsd, a live IMU, the race button) keeps one, so they back off alike.
struct Backoff: Sendable {
    /// Seconds before the first retry, and the most between two.
    let first: Double
    let limit: Double
    private var delay: Double
    /// The monotonic time of the next try.
    private(set) var retryAt = -Double.infinity
    /// When the current run of failures began; nil while it works.
    private(set) var failingSince: Double?

    init(first: Double = 0.1, limit: Double = 1) {
        self.first = first
        self.limit = max(limit, first)
        delay = first
    }

    /// Whether a try is due at `now`.
    func isDue(_ now: Double) -> Bool { now >= retryAt }

    /// A try failed at `now`: the next is due after the current delay, which then doubles. True for the first
    /// failure of a run (the one worth a line in the log).
    @discardableResult
    mutating func failed(at now: Double) -> Bool {
        let first = failingSince == nil
        if first { failingSince = now }
        retryAt = now + delay
        delay = min(delay * 2, limit)
        return first
    }

    /// A try worked: the delays start again from the first. True when it came after failures (a reconnect).
    @discardableResult
    mutating func succeeded() -> Bool {
        let recovered = failingSince != nil
        failingSince = nil
        delay = first
        retryAt = -.infinity
        return recovered
    }
}
