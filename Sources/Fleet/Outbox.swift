/// The shore's letters on their way (the boat watch's e-mails and push messages), sans-I/O: which to send now, a few
/// at a time, and what to do when one comes back: done, tried again later (a server down, slow, or saying "later"),
/// or given up (refused for good, or still failing after the last try). The shore's ``AlertPost`` starts a messenger
/// for each letter this hands out and tells it how that ended.
public struct Outbox<Letter> {
    public struct Item {
        public let id: Int
        public let letter: Letter
        public internal(set) var attempts = 0
        var due: Double
    }

    public enum Ending: Equatable {
        case delivered
        /// Worth another try (a connection refused, a timeout, a 4xx answer).
        case failed
        /// Refused for good (a 5xx answer, a subscription the push service no longer knows).
        case refused
    }

    public enum Outcome: Equatable {
        case done
        case again(at: Double)
        case givenUp(attempts: Int)
    }

    /// Seconds after a failure before each new try: about an hour and a half of trying in all.
    public static var delays: [Double] { [30, 120, 600, 1800, 3600] }
    /// Letters out at once.
    public let parallel: Int
    /// Letters kept waiting at most: past it the oldest go (an alert storm never eats the shore's memory).
    public let capacity: Int
    private(set) var waiting: [Item] = []
    private(set) var out: [Int: Item] = [:]
    private var nextID = 1
    public private(set) var dropped = 0

    public init(parallel: Int = 4, capacity: Int = 1000) {
        self.parallel = parallel
        self.capacity = capacity
    }

    public var isEmpty: Bool { waiting.isEmpty && out.isEmpty }
    public var count: Int { waiting.count + out.count }

    /// A letter to send as soon as there is room; its id.
    @discardableResult
    public mutating func post(_ letter: Letter, at time: Double) -> Int {
        let item = Item(id: nextID, letter: letter, due: time)
        nextID += 1
        waiting.append(item)
        if waiting.count > capacity {
            waiting.removeFirst()
            dropped += 1
        }
        return item.id
    }

    /// The letters to send now (each is then out until ``ended(_:_:at:)``).
    public mutating func due(at time: Double) -> [Item] {
        var handed: [Item] = []
        var index = 0
        while index < waiting.count && out.count < parallel {
            guard waiting[index].due <= time else {
                index += 1
                continue
            }
            var item = waiting.remove(at: index)
            item.attempts += 1
            out[item.id] = item
            handed.append(item)
        }
        return handed
    }

    /// How a letter handed out ended.
    public mutating func ended(_ id: Int, _ ending: Ending, at time: Double) -> Outcome? {
        guard var item = out.removeValue(forKey: id) else { return nil }
        switch ending {
        case .delivered: return .done
        case .refused: return .givenUp(attempts: item.attempts)
        case .failed:
            let delays = Self.delays
            guard item.attempts <= delays.count else { return .givenUp(attempts: item.attempts) }
            item.due = time + delays[item.attempts - 1]
            waiting.append(item)
            return .again(at: item.due)
        }
    }
}
