/// Chooses one source for a quantity that several inputs deliver (two GPS, two wind sensors).
///
/// Rules, so that the choice does not flap:
/// - The current source is kept while it is fresh (updated within the timeout).
/// - When it goes stale, the best fresh source by priority takes over at once (failover).
/// - A source of higher priority than the current one takes over only after it has been fresh without a break
///   for `returnDelay` seconds, so a sensor that comes and goes does not pull the choice back and forth.
///
/// Priorities are the order of `priority` (first is best); sources not listed rank after, in order of first
/// appearance. Holds at most `capacity` sources; storage is fixed after the first observation of each.
public struct SourceSelector<Value: Sendable>: Sendable {
    private struct Candidate: Sendable {
        var latest: Observation<Value>
        /// When its current unbroken run of fresh updates began.
        var freshSince: Double
        var rank: Int
    }

    public var timeout: Double
    public var returnDelay: Double
    private let priority: [SourceID]
    private var candidates: [Candidate] = []
    private var current: Int?
    /// How many times the chosen source changed.
    public private(set) var switches = 0

    public init(timeout: Double, returnDelay: Double = 10, priority: [SourceID] = []) {
        self.timeout = timeout
        self.returnDelay = returnDelay
        self.priority = priority
        candidates.reserveCapacity(4)
    }

    /// Records an observation.
    /// `fallback`: an unlisted source that ranks after every other unlisted one whenever it appears (the IMU's
    /// magnetometer heading, behind any compass).
    public mutating func record(_ observation: Observation<Value>, fallback: Bool = false) {
        if let index = candidates.firstIndex(where: { $0.latest.source == observation.source }) {
            let wasFresh = candidates[index].latest.isFresh(at: observation.time, timeout: timeout)
            candidates[index].latest = observation
            if !wasFresh { candidates[index].freshSince = observation.time }
        } else {
            let listed = priority.firstIndex(of: observation.source)
            let rank = listed ?? (priority.count + candidates.count + (fallback ? 1_000_000 : 0))
            candidates.append(Candidate(latest: observation, freshSince: observation.time, rank: rank))
        }
    }

    /// The last observation from `source`, fresh or not.
    public func latest(from source: SourceID) -> Observation<Value>? {
        candidates.first { $0.latest.source == source }?.latest
    }

    /// The observation of the chosen source at `now`, or nil when no source is fresh.
    public mutating func select(at now: Double) -> Observation<Value>? {
        var best: Int?
        var bestSettled: Int?
        for index in candidates.indices where candidates[index].latest.isFresh(at: now, timeout: timeout) {
            if best == nil || candidates[index].rank < candidates[best!].rank { best = index }
            if now - candidates[index].freshSince >= returnDelay
                && (bestSettled == nil || candidates[index].rank < candidates[bestSettled!].rank)
            {
                bestSettled = index
            }
        }
        guard let best else { return nil }
        var chosen: Int
        if let current, candidates[current].latest.isFresh(at: now, timeout: timeout) {
            chosen = current
            if let bestSettled, candidates[bestSettled].rank < candidates[current].rank { chosen = bestSettled }
        } else {
            chosen = best
        }
        if chosen != current {
            if current != nil { switches += 1 }
            current = chosen
        }
        return candidates[chosen].latest
    }

    /// Whether any source is fresh at `now`.
    public func hasFresh(at now: Double) -> Bool {
        candidates.contains { $0.latest.isFresh(at: now, timeout: timeout) }
    }

    /// The source chosen at the last ``select(at:)``.
    public var currentSource: SourceID? { current.map { candidates[$0].latest.source } }
}
