/// What a sailor wants to know about a bus or a log: which sentences arrive, from which talkers, how often,
/// and what is wrong with the rest.
///
/// A sentence counts as accepted when it frames and either decodes or is of a type Telltale passes through
/// untouched; a framing error or a field that cannot be read is a reject, counted by reason with the first example.
public struct BusInspector: FramerSink {
    public struct Example: Hashable, Sendable {
        /// The physical line, counting from 1.
        public var line: Int
        public var text: String

        public init(line: Int, text: String) {
            self.line = line
            self.text = text
        }
    }

    public private(set) var accepted = 0
    public private(set) var rejects = RejectCounts()
    /// Sentences per address.
    public var byAddress: [Address: Int] {
        var result: [Address: Int] = [:]
        for entry in addressCounts { result[entry.key] = entry.count }
        return result
    }
    /// Sentences per talker.
    public var talkers: [Talker: Int] {
        var result: [Talker: Int] = [:]
        for entry in talkerCounts { result[entry.key] = entry.count }
        return result
    }
    /// Counted in small arrays, the last one hit looked at first: a bus has a few dozen addresses, and hashing an
    /// address per sentence cost more than the rest of the counting.
    private var addressCounts = Tally<Address>()
    private var talkerCounts = Tally<Talker>()
    public private(set) var examples: [RejectReason: Example] = [:]
    public var comments: Int { framer.statistics.comments }
    public var bytes: Int { framer.statistics.bytes }

    private var framer: SentenceFramer
    private var tagTimes: (first: Int64, last: Int64)?
    private var logClock = LogClock()
    private var wallClock: (first: Double, last: Double)?

    public init(configuration: FramerConfiguration = FramerConfiguration(skipsCommentLines: true)) {
        framer = SentenceFramer(configuration: configuration)
    }

    /// Feeds bytes; `now` is a wall-clock reading in seconds for live streams, nil for files.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, now: Double? = nil) {
        if let now { wallClock = (wallClock?.first ?? now, now) }
        var framer = self.framer
        framer.feed(bytes, into: &self)
        self.framer = framer
    }

    /// Feeds bytes from any sequence.
    public mutating func feed(_ bytes: some Sequence<UInt8>, now: Double? = nil) {
        let array = Array(bytes)
        array.withUnsafeBufferPointer { feed($0, now: now) }
    }

    /// Ends the input (a last line without line ending is judged).
    public mutating func finish() {
        var framer = self.framer
        framer.finish(into: &self)
        self.framer = framer
    }

    /// The time the input covers in seconds: from tag blocks, else from the sentences' own UTC times, else from
    /// the wall clock for a live stream; nil when none of these is known.
    public var duration: Double? {
        if let tagTimes, tagTimes.last > tagTimes.first { return Double(tagTimes.last - tagTimes.first) / 1000 }
        if logClock.elapsed > 0 { return logClock.elapsed }
        if let wallClock, wallClock.last > wallClock.first { return wallClock.last - wallClock.first }
        return nil
    }

    /// Sentences per second of one address, when the duration is known.
    public func rate(of address: Address) -> Double? {
        guard let duration, let count = addressCounts.count(of: address) else { return nil }
        return Double(count) / duration
    }

    public mutating func reject(_ error: FramingError, _ excerpt: Excerpt) {
        record(error.reason, line: excerpt.line, text: excerpt.description)
    }

    public mutating func take(_ sentence: inout Sentence) {
        // The time is taken inside: a `Message` is some 150 bytes with counted references, and each copy of it
        // out of a `do` cost more than the counting.
        var time: UTCTime?
        do {
            time = LogClock.time(of: try Message(lent: &sentence))
        } catch {
            guard case .unsupported = error else {
                record(error.reason, line: sentence.line, text: sentence.description)
                return
            }
        }
        accepted += 1
        addressCounts.add(sentence.address)
        if let talker = sentence.address.talker { talkerCounts.add(talker) }
        if let time = sentence.tagBlock?.unixMilliseconds {
            tagTimes = (tagTimes?.first ?? time, max(tagTimes?.last ?? time, time))
        }
        if let time { logClock.advance(to: time) }
    }

    private mutating func record(_ reason: RejectReason, line: Int, text: String) {
        rejects.record(reason)
        if examples[reason] == nil { examples[reason] = Example(line: line, text: text) }
    }
}

/// Elapsed time from the UTC times of day that sentences carry, across midnight.
///
/// It follows the latest time seen: sentences of several devices whose clocks differ by a little do not add up
/// their back-and-forth, and a gap of more than an hour (a log stitched together) is stepped over uncounted.
struct LogClock {
    private(set) var elapsed = 0.0
    private var latest: UTCTime?

    static func time(of message: consuming Message) -> UTCTime? {
        switch message {
        case .rmc(let rmc): rmc.time
        case .gga(let gga): gga.time
        case .gll(let gll): gll.time
        case .zda(let zda): zda.time
        case .bwc(let bwc): bwc.waypoint.time
        default: nil
        }
    }

    mutating func advance(to time: UTCTime) {
        guard let latest else {
            latest = time
            return
        }
        var delta = time.millisecondsOfDay - latest.millisecondsOfDay
        if delta < -43_200_000 { delta += 86_400_000 }
        if delta > 0 && delta <= 3_600_000 { elapsed += Double(delta) / 1000 }
        if delta > 0 || delta < -3_600_000 { self.latest = time }
    }
}

/// Counts per key in an array, the last key hit tried first (no hashing per count).
struct Tally<Key: Equatable & Sendable>: Sendable {
    private(set) var entries: [(key: Key, count: Int)] = []
    private var last = 0

    mutating func add(_ key: Key) {
        if last < entries.count && entries[last].key == key {
            entries[last].count &+= 1
            return
        }
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].count &+= 1
            last = index
        } else {
            entries.append((key, 1))
            last = entries.count - 1
        }
    }

    func count(of key: Key) -> Int? { entries.first { $0.key == key }?.count }
}

extension Tally: Sequence {
    func makeIterator() -> IndexingIterator<[(key: Key, count: Int)]> { entries.makeIterator() }
}
