import CPosix
import Engine
import NMEA
import Platform

/// A recorded log played as a live input: each sentence at its log time (scaled by `speed`), from the start again
/// when `loop` is set. The bench profile feeds the demo voyage this way.
///
/// Kept small for a Pi: the file's bytes, and per sentence only where its line starts and its time; a sentence is
/// framed again when it is due rather than held framed (an inline `Sentence` is some 400 bytes).
final class FileInput: InputTransport {
    let name: String
    private let bytes: [UInt8]
    /// Start offset of each framed sentence's line in `bytes` (its end is the next line break).
    private let starts: [Int32]
    /// Seconds from the start of the log, one per sentence.
    private let offsets: [Float64]
    private let span: Double
    private let loop: Bool
    private let speed: Double
    private let framing: FramerConfiguration
    private var next = 0
    /// Laps completed (a looping input starts again at 0 each lap).
    private(set) var lap = 0
    /// The loop's start on the monotonic clock: the log's first sentence is due then.
    private var startTime = 0.0

    init(configuration: InputConfiguration, path: String) throws(POSIX.Failure) {
        name = configuration.name
        var framing = configuration.framing
        framing.skipsCommentLines = true
        self.framing = framing
        let bytes = try POSIX.readFile(path)
        // Frame once to learn each sentence's line and what it says of the clock; keep only those, never the framed
        // sentences themselves (some 400 bytes each: 11 MB for the demo voyage, the start-up peak this used to be).
        let lineStarts = Self.lineStarts(bytes)
        var framer = SentenceFramer(configuration: framing)
        var starts: [Int32] = []
        var clues = TimeClues()
        let take: (FramerEvent) -> Void = { event in
            guard case .sentence(let sentence) = event else { return }
            starts.append(lineStarts[max(0, min(sentence.line - 1, lineStarts.count - 1))])
            clues.add(sentence)
        }
        framer.feed(bytes, take)
        framer.finish(take)
        self.starts = starts
        let times = clues.times(lineRate: 10)
        let first = times.first ?? 0
        offsets = times.map { $0 - first }
        let mean = offsets.count > 1 ? (offsets.last ?? 0) / Double(offsets.count - 1) : 1
        span = (offsets.last ?? 0) + mean
        loop = configuration.loop
        speed = configuration.speed
        self.bytes = bytes
    }

    /// Where each physical line starts, counted as the framer counts them (LF, CR LF, or a lone CR).
    private static func lineStarts(_ bytes: [UInt8]) -> [Int32] {
        var starts: [Int32] = [0]
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0A || (byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) {
                starts.append(Int32(index + 1))
            }
        }
        return starts
    }

    func start(at time: Double) { startTime = time }

    func prepare(now: Double, into fds: inout [pollfd]) {}

    /// When (runtime clock) the next sentence is due; nil when the log is finished.
    func nextDue(now: Double) -> Double? {
        guard next < starts.count else { return nil }
        return startTime + (Double(lap) * span + offsets[next]) / speed
    }

    var finished: Bool? { next >= starts.count }

    /// Hands over every sentence due by `now`, and says when a looping log starts again.
    func service(now: Double, polled fds: [pollfd], _ body: (InputEvent) -> Void) {
        while let due = nextDue(now: now), due <= now {
            let begin = Int(starts[next])
            var end = begin
            while end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
            var framer = SentenceFramer(configuration: framing)
            bytes.withUnsafeBufferPointer { buffer in
                framer.feed(UnsafeBufferPointer(rebasing: buffer[begin..<end])) {
                    if case .sentence(let s) = $0 { body(.sentence(s)) }
                }
                framer.finish { if case .sentence(let s) = $0 { body(.sentence(s)) } }
            }
            next += 1
            if next == starts.count && loop && span > 0 {
                next = 0
                lap += 1
                body(.restarted(lap: lap))
            }
        }
    }
}
