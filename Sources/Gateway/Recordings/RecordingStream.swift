import CPosix
import Engine
import NMEA
import Platform

/// A recorded log read as it replays, so that a day's log replays on a Pi: a first pass learns what the log says
/// of its clock (``TimeClues``: 8 bytes a sentence, never the sentences), the second frames the file again through
/// a 16 KB buffer and hands each sentence over with its time. Memory is the times plus one buffer's sentences.
public final class RecordingStream {
    public let path: String
    /// What framing refused, counted on the first pass.
    public let statistics: FramerStatistics
    public var count: Int { times.count }
    /// The log's own times left out as a glitch (``LogClock``).
    public let timeGlitches: Int
    private let times: [Double]
    let index: Int
    private let configuration: FramerConfiguration
    private var fd: Int32 = -1
    private var framer: SentenceFramer
    private var pending: [Sentence] = []
    private var pendingNext = 0
    private var delivered = 0
    private var ended = false
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    /// `index` is the log's place in the replay (ties in time go to the lower one). `#` lines are comments; the
    /// lenient length limit applies.
    public init(
        path: String, index: Int, lineRate: Double,
        configuration: FramerConfiguration = FramerConfiguration(skipsCommentLines: true)
    ) throws(POSIX.Failure) {
        self.path = path
        self.index = index
        self.configuration = configuration
        var clues = TimeClues()
        var framer = SentenceFramer(configuration: configuration)
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        let fd = try POSIX.openFile(path)
        defer { POSIX.close(fd) }
        while case .bytes(let got) = scratch.withUnsafeMutableBytes({ POSIX.read(fd, into: $0) }), got > 0 {
            scratch.withUnsafeBufferPointer { bytes in
                framer.feed(UnsafeBufferPointer(rebasing: bytes[0..<got])) {
                    if case .sentence(let sentence) = $0 { clues.add(sentence) }
                }
            }
        }
        framer.finish { if case .sentence(let sentence) = $0 { clues.add(sentence) } }
        statistics = framer.statistics
        (times, timeGlitches) = clues.timeline(lineRate: lineRate)
        self.framer = SentenceFramer(configuration: configuration)
    }

    deinit { if fd >= 0 { POSIX.close(fd) } }

    /// The times of the first and the last sentence.
    public var firstTime: Double? { times.first }
    public var lastTime: Double? { times.last }

    /// The log time left out when every gap between two sentences is cut to `limit` seconds (a logger paused).
    public func gapExcess(over limit: Double) -> Double { gaps(over: limit).excess }

    /// The gaps between two sentences longer than `limit` seconds, and the time they hold beyond it.
    public func gaps(over limit: Double) -> (count: Int, excess: Double) {
        var count = 0
        var excess = 0.0
        for i in times.indices.dropFirst() where times[i] - times[i - 1] > limit {
            count += 1
            excess += times[i] - times[i - 1] - limit
        }
        return (count, excess)
    }

    /// Back to the first sentence (a looping input's next lap): the file is framed again from its start.
    public func rewind() {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
        framer = SentenceFramer(configuration: configuration)
        pending.removeAll(keepingCapacity: true)
        pendingNext = 0
        delivered = 0
        ended = false
    }

    /// The time of the next sentence, without taking it.
    public var nextTime: Double? { delivered < times.count ? times[delivered] : nil }

    /// The next sentence with its time; nil at the end.
    public func next() -> TimedSentence? {
        while pendingNext >= pending.count {
            guard refill() else { return nil }
        }
        let sentence = pending[pendingNext]
        pendingNext += 1
        guard delivered < times.count else { return nil }
        defer { delivered += 1 }
        return TimedSentence(time: times[delivered], sentence: sentence, log: index)
    }

    /// Frames the next buffer of the file; false at its end.
    private func refill() -> Bool {
        pending.removeAll(keepingCapacity: true)
        pendingNext = 0
        guard !ended else { return false }
        if fd < 0 {
            do { fd = try POSIX.openFile(path) } catch {
                ended = true
                return false
            }
        }
        let outcome = buffer.withUnsafeMutableBytes { POSIX.read(fd, into: $0) }
        guard case .bytes(let got) = outcome, got > 0 else {
            ended = true
            framer.finish { if case .sentence(let sentence) = $0 { pending.append(sentence) } }
            return !pending.isEmpty
        }
        buffer.withUnsafeBufferPointer { bytes in
            framer.feed(UnsafeBufferPointer(rebasing: bytes[0..<got])) {
                if case .sentence(let sentence) = $0 { pending.append(sentence) }
            }
        }
        return true
    }

    /// Several logs merged in time order, one sentence at a time; equal times keep log order, then line order
    /// (each log's times never go back), as ``RecordingTimeline/merge(_:)`` orders whole logs.
    public static func merged(_ logs: [RecordingStream]) -> () -> TimedSentence? {
        return {
            var best: Int?
            for (position, log) in logs.enumerated() {
                guard let time = log.nextTime else { continue }
                if let b = best, let bestTime = logs[b].nextTime, bestTime <= time { continue }
                best = position
            }
            return best.flatMap { logs[$0].next() }
        }
    }
}
