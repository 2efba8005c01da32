import CPosix

/// The descriptors one turn of the loop waits on, and what poll(2) said of each: the one place `pollfd` lives. A
/// part registers its descriptor (``add(_:read:write:)`` gives back its place) and, after ``wait(seconds:)``, reads
/// what is ready there as a ``Readiness``. Kept and emptied turn after turn, so nothing is allocated once it has
/// grown to the loop's size.
public struct PollSet {
    /// What poll said of one descriptor.
    public struct Readiness: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let readable = Readiness(rawValue: 1)
        public static let writable = Readiness(rawValue: 2)
        /// The other end hung up (a serial adapter unplugged, a peer gone).
        public static let hangUp = Readiness(rawValue: 4)
        public static let error = Readiness(rawValue: 8)

        /// Readable, hung up or failed: a read will say which without blocking.
        public var canRead: Bool { !isDisjoint(with: [.readable, .hangUp, .error]) }
    }

    private var entries: [pollfd] = []

    public init(capacity: Int = 64) { entries.reserveCapacity(capacity) }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    public mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    /// Waits on `fd` for reading (and writing, when asked); its place in the set.
    @discardableResult
    public mutating func add(_ fd: Int32, read: Bool = true, write: Bool = false) -> Int {
        let events = (read ? Int16(POLLIN) : 0) | (write ? Int16(POLLOUT) : 0)
        entries.append(pollfd(fd: fd, events: events, revents: 0))
        return entries.count - 1
    }

    /// The descriptors of `other` at the places `range`, as they wait.
    public mutating func append(contentsOf other: PollSet, _ range: Range<Int>) {
        let range = range.clamped(to: 0..<other.entries.count)
        guard !range.isEmpty else { return }
        entries.append(contentsOf: other.entries[range])
    }

    /// What poll said at place `index` (nothing for a place not in the set).
    public func readiness(at index: Int) -> Readiness {
        guard index >= 0 && index < entries.count else { return [] }
        return Self.readiness(entries[index].revents)
    }

    /// What poll said of `fd` (nothing when it was not waited on).
    public func readiness(of fd: Int32) -> Readiness {
        guard fd >= 0, let entry = entries.first(where: { $0.fd == fd }) else { return [] }
        return Self.readiness(entry.revents)
    }

    /// Waits at most `seconds` (to the nanosecond, ppoll(2)); how many descriptors are ready, an interruption
    /// counting as none.
    @discardableResult
    public mutating func wait(seconds: Double) -> Int32 {
        guard !entries.isEmpty || seconds > 0 else { return 0 }
        return POSIX.poll(&entries, seconds: seconds)
    }

    /// Whether any descriptor is ready now (poll without waiting).
    public mutating func anyReady() -> Bool {
        guard !entries.isEmpty else { return false }
        return POSIX.poll(&entries, milliseconds: 0) > 0
    }

    static func readiness(_ revents: Int16) -> Readiness {
        var out: Readiness = []
        if revents & Int16(POLLIN) != 0 { out.insert(.readable) }
        if revents & Int16(POLLOUT) != 0 { out.insert(.writable) }
        if revents & Int16(POLLHUP) != 0 { out.insert(.hangUp) }
        if revents & Int16(POLLERR | POLLNVAL) != 0 { out.insert(.error) }
        return out
    }
}

/// One descriptor's place in the polled set, remembered by a part between registering and reading it.
public struct PollSlot: Sendable {
    private var index = -1

    public init() {}

    public mutating func register(_ fd: Int32, read: Bool = true, write: Bool = false, into set: inout PollSet) {
        index = set.add(fd, read: read, write: write)
    }

    public mutating func clear() { index = -1 }

    /// What poll said of the descriptor (nothing when it was not registered this turn).
    public func readiness(in set: PollSet) -> PollSet.Readiness { set.readiness(at: index) }
}
