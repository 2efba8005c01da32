/// One stream client's subscriptions and what it is owed, in the terms of the Signal K specification's
/// subscription protocol: path patterns with `*`, `period` and `minPeriod` in milliseconds, and the policies
/// `instant` (each change at once, at most one per `minPeriod`), `ideal` (the same, and the last value again when
/// nothing changed for `period`, never more often than `minPeriod`) and `fixed` (the latest value every `period`).
/// A subscription that names no policy takes the reference server's (`src/subscriptionmanager.ts`): `fixed` when it
/// gives a `period`, else `instant`. Pure: time is an argument.
public struct StreamSubscription: Sendable {
    public enum Policy: String, Sendable {
        case instant
        case ideal
        case fixed
    }

    public struct Subscription: Hashable, Sendable {
        public var pattern: String {
            didSet { patternBytes = Array(pattern.utf8) }
        }
        private var patternBytes: [UInt8]
        /// Seconds.
        public var period: Double
        public var minPeriod: Double
        public var policy: Policy

        public init(pattern: String, period: Double = 1, minPeriod: Double = 0, policy: Policy = .ideal) {
            self.pattern = pattern
            self.patternBytes = Array(pattern.utf8)
            self.period = period
            self.minPeriod = minPeriod
            self.policy = policy
        }

        /// Whether `path` matches: `*` stands for any run of characters, dots included.
        public func matches(_ path: String) -> Bool {
            if patternBytes == [UInt8(ascii: "*")] { return true }
            var path = path
            return path.withUTF8 { Self.glob(patternBytes[...], $0) }
        }

        static func glob(_ pattern: ArraySlice<UInt8>, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
            var p = pattern.startIndex
            var t = text.startIndex
            var star: Int?
            var resume = t
            while t < text.endIndex {
                if p < pattern.endIndex && pattern[p] == UInt8(ascii: "*") {
                    star = p
                    p += 1
                    resume = t
                } else if p < pattern.endIndex && pattern[p] == text[t] {
                    p += 1
                    t += 1
                } else if let s = star {
                    p = s + 1
                    resume += 1
                    t = resume
                } else {
                    return false
                }
            }
            while p < pattern.endIndex && pattern[p] == UInt8(ascii: "*") { p += 1 }
            return p == pattern.endIndex
        }
    }

    /// The most subscriptions one client may hold (a flood of subscribe messages replaces, never grows past it).
    public static let maximumSubscriptions = 64

    public private(set) var subscriptions: [Subscription]

    private struct PathState: Sendable {
        var lastSent = -Double.infinity
        var held: SignalKModel.Update?
        var last: SignalKModel.Update
        var subscription: Int
    }

    /// By path and source.
    private var states: [String: PathState] = [:]
    /// The keys of `states` in order, kept as keys come and go: `due` walks them in a deterministic order each tick
    /// (sorting them there, for every client at every tick, was most of the stream's work).
    private var order: [String] = []
    /// Paths whose meta this client has been sent.
    private var metaSent: Set<String> = []
    /// The client asked for meta (`sendMeta=all` on the stream URL): each path's meta comes with its first value.
    public let sendsMeta: Bool
    /// The client asked for every source's values (`sourcePolicy=all`), not only the preferred one's.
    public var allSources = false
    /// The other contexts (AIS stations) this client follows, as context patterns (`*`, `vessels.*`,
    /// `vessels.urn:mrn:imo:mmsi:235000001`), each with its path patterns; empty: none.
    public private(set) var traffic: [(context: Subscription, paths: [Subscription])] = []

    /// `subscribe` from the stream URL: `self` subscribes to this boat's values as they come, `all` to those of
    /// every vessel heard on AIS too, `none` to nothing until the client asks. Meta only when `sendMeta` (the
    /// reference sends none otherwise).
    public init(query: String?, sendMeta: Bool = false) {
        sendsMeta = sendMeta
        if query == "none" {
            subscriptions = []
        } else {
            subscriptions = [Subscription(pattern: "*", period: 1, minPeriod: 0, policy: .instant)]
        }
        if query == "all" { traffic = [(Subscription(pattern: "*"), [Subscription(pattern: "*")])] }
    }

    /// Whether an AIS station's delta goes to this client: a context it follows, and a path it asked for.
    public func follows(context: String, paths: [String]) -> Bool {
        traffic.contains { entry in
            entry.context.matches(context) && entry.paths.contains { p in paths.contains { p.matches($0) } }
        }
    }

    /// Applies a client message: `subscribe` adds (or replaces, for the same pattern), `unsubscribe` removes the
    /// patterns given (`*` removes all). Returns false for a message that is neither, or for another vessel's context.
    public mutating func apply(_ message: JSONValue, selfContext: String) -> Bool {
        let context = message["context"]?.string
        // Other vessels' contexts (AIS): followed apart from this boat's paths.
        if let context, context == "*" || context.hasSuffix(".*") || !Self.isSelf(context, selfContext) {
            followTraffic(context, message)
            if !(context == "*" || context == "vessels.*") {
                return message["subscribe"] != nil || message["unsubscribe"] != nil
            }
        }
        if let list = message["subscribe"]?.array {
            for item in list {
                guard let path = item["path"]?.string, !path.isEmpty, path.utf8.count <= 200 else { continue }
                let period = (item["period"]?.number).map { max($0, 10) / 1000 } ?? 1
                let minPeriod = (item["minPeriod"]?.number).map { max($0, 0) / 1000 } ?? 0
                let named = item["policy"]?.string.flatMap(Policy.init(rawValue:))
                let policy = named ?? (item["period"]?.number != nil ? .fixed : .instant)
                let subscription = Subscription(pattern: path, period: period, minPeriod: minPeriod, policy: policy)
                if let index = subscriptions.firstIndex(where: { $0.pattern == path }) {
                    subscriptions[index] = subscription
                } else if subscriptions.count < Self.maximumSubscriptions {
                    subscriptions.append(subscription)
                }
            }
            states.removeAll()
            order.removeAll()
            return true
        }
        if let list = message["unsubscribe"]?.array {
            for item in list {
                guard let path = item["path"]?.string else { continue }
                if path == "*" { subscriptions.removeAll() } else { subscriptions.removeAll { $0.pattern == path } }
            }
            states.removeAll()
            order.removeAll()
            return true
        }
        return false
    }

    static func isSelf(_ context: String, _ selfContext: String) -> Bool {
        context == "vessels.self" || context == "self" || context == selfContext
    }

    /// A subscribe or unsubscribe for other contexts: their path patterns kept (at most 16 contexts), or dropped.
    private mutating func followTraffic(_ context: String, _ message: JSONValue) {
        if let list = message["subscribe"]?.array {
            let paths = list.compactMap { item -> Subscription? in
                guard let path = item["path"]?.string, !path.isEmpty, path.utf8.count <= 200 else { return nil }
                return Subscription(pattern: path)
            }
            guard !paths.isEmpty else { return }
            if let index = traffic.firstIndex(where: { $0.context.pattern == context }) {
                traffic[index].paths = Array((traffic[index].paths + paths).suffix(Self.maximumSubscriptions))
            } else if traffic.count < 16 {
                traffic.append((Subscription(pattern: context), paths))
            }
        }
        if let list = message["unsubscribe"]?.array {
            for item in list where item["path"]?.string != nil {
                let path = item["path"]!.string!
                if context == "*" && path == "*" {
                    traffic.removeAll()
                    continue
                }
                for index in traffic.indices.reversed() where traffic[index].context.pattern == context {
                    traffic[index].paths.removeAll { path == "*" || $0.pattern == path }
                    if traffic[index].paths.isEmpty { traffic.remove(at: index) }
                }
            }
        }
    }

    /// The subscription that governs `path`: the last one that matches.
    private func governing(_ path: String) -> Int? { subscriptions.lastIndex { $0.matches(path) } }

    /// Offers new updates at `now`: returns those to send now. Withdrawals (`null`) go at once.
    public mutating func offer(_ updates: [SignalKModel.Update], at now: Double) -> [SignalKModel.Update] {
        var out: [SignalKModel.Update] = []
        for update in updates {
            guard let index = governing(update.path) else { continue }
            let key = update.path + "|" + update.source
            if update.value == .null {
                if states.removeValue(forKey: key) != nil {
                    let place = position(of: key)
                    if place < order.count && order[place] == key { order.remove(at: place) }
                }
                out.append(update)
                continue
            }
            var state: PathState
            if let known = states[key] {
                state = known
            } else {
                state = PathState(last: update, subscription: index)
                order.insert(key, at: position(of: key))
            }
            state.last = update
            state.subscription = index
            let subscription = subscriptions[index]
            if subscription.policy != .fixed && now - state.lastSent >= subscription.minPeriod {
                state.lastSent = now
                state.held = nil
                out.append(update)
            } else {
                state.held = update
            }
            states[key] = state
        }
        return out
    }

    /// What has come due by `now`: values held back by `minPeriod`, `fixed` periods, `ideal` repeats.
    public mutating func due(at now: Double) -> [SignalKModel.Update] {
        var out: [SignalKModel.Update] = []
        for key in order {
            guard var state = states[key], state.subscription < subscriptions.count else { continue }
            let subscription = subscriptions[state.subscription]
            switch subscription.policy {
            case .instant, .ideal:
                if let held = state.held, now - state.lastSent >= subscription.minPeriod {
                    out.append(held)
                    state.held = nil
                    state.lastSent = now
                } else if subscription.policy == .ideal
                    && now - state.lastSent >= max(subscription.period, subscription.minPeriod)
                {
                    out.append(state.last)
                    state.lastSent = now
                }
            case .fixed:
                if now - state.lastSent >= subscription.period {
                    out.append(state.held ?? state.last)
                    state.held = nil
                    state.lastSent = now
                }
            }
            states[key] = state
        }
        return out
    }

    /// Where `key` is in `order`, or would go: the first place whose key is not below it.
    private func position(of key: String) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if order[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The paths of `updates` whose meta this client has not had yet (each is then counted as sent).
    public mutating func newMeta(_ updates: [SignalKModel.Update]) -> [String] {
        guard sendsMeta else { return [] }
        var paths: [String] = []
        for update in updates where update.value != .null && !metaSent.contains(update.path) {
            metaSent.insert(update.path)
            paths.append(update.path)
        }
        return paths
    }
}
