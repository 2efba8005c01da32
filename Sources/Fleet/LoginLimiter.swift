/// How the shore slows a guesser: failed logins counted per account and per address; after a few, each further try on
/// that account or from that address waits, longer each time (doubling, to a quarter of an hour), so a thousand
/// guesses take days rather than seconds. A refusal is said in the log once a streak (the first failure, and when the
/// waiting starts), never a line a guess. Sans-I/O: the time is given; its memory is bounded.
public struct LoginLimiter: Sendable {
    /// Failures allowed before the waiting starts.
    public var freeFailures = 5
    /// The longest wait, seconds.
    public var longestWait = 900.0
    /// A streak forgotten after this long without a failure.
    public var forgetAfter = 3600.0
    /// At most this many accounts and addresses remembered (the oldest streaks forgotten first).
    public var capacity = 20_000

    struct Streak: Sendable {
        var failures = 0
        var last = 0.0
        var until = 0.0
        var saidWaiting = false
    }

    private var streaks: [String: Streak] = [:]

    public init() {}

    /// What to do with a login before its password is checked.
    public enum Verdict: Equatable, Sendable {
        case check
        /// Refused unchecked: try again after this many seconds.
        case wait(Double)
    }

    /// What to say of a failure: nothing (a streak already said), its first failure, or the waiting starting.
    public enum Saying: Equatable, Sendable {
        case nothing
        case firstFailure
        case waiting(Double)
    }

    static func keys(_ account: String, _ address: String) -> [String] { ["account " + account, "address " + address] }

    /// Whether a login for `account` from `address` may be checked at `now`.
    public func verdict(account: String, address: String, at now: Double) -> Verdict {
        var wait = 0.0
        for key in Self.keys(account, address) {
            if let streak = streaks[key], now - streak.last < forgetAfter { wait = max(wait, streak.until - now) }
        }
        return wait > 0 ? .wait(wait.rounded(.up)) : .check
    }

    /// A wrong password (or an unknown account) at `now`; what the log should say of it.
    public mutating func failed(account: String, address: String, at now: Double) -> Saying {
        var saying = Saying.nothing
        for key in Self.keys(account, address) {
            var streak = streaks[key].flatMap { now - $0.last < forgetAfter ? $0 : nil } ?? Streak()
            if streak.failures == 0 && saying == .nothing { saying = .firstFailure }
            streak.failures += 1
            streak.last = now
            let over = streak.failures - freeFailures
            if over >= 0 {
                let wait = min(longestWait, Double(1 << min(over, 20)))
                streak.until = now + wait
                if !streak.saidWaiting {
                    streak.saidWaiting = true
                    saying = .waiting(wait)
                }
            }
            streaks[key] = streak
        }
        if streaks.count > capacity { forgetOldest() }
        return saying
    }

    /// A login that succeeded: the account's streak and the address's forgotten.
    public mutating func succeeded(account: String, address: String) {
        for key in Self.keys(account, address) { streaks[key] = nil }
    }

    /// Failures counted now for the account and the address.
    public func failures(account: String, address: String) -> (account: Int, address: Int) {
        let keys = Self.keys(account, address)
        return (streaks[keys[0]]?.failures ?? 0, streaks[keys[1]]?.failures ?? 0)
    }

    private mutating func forgetOldest() {
        let oldest = streaks.sorted { $0.value.last < $1.value.last }.prefix(streaks.count - capacity * 3 / 4)
        for (key, _) in oldest { streaks[key] = nil }
    }
}
