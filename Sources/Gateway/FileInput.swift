import Engine
import NMEA

/// A recorded log played as a live input: each sentence at its log time (scaled by `speed`), from the start again
/// when `loop` is set. The bench profile feeds the demo voyage this way.
struct FileInput {
    let name: String
    private let sentences: [Sentence]
    /// Seconds from the start of the log, one per sentence.
    private let offsets: [Double]
    private let span: Double
    private let loop: Bool
    private let speed: Double
    private var next = 0
    /// Laps completed (a looping input starts again at 0 each lap).
    private(set) var lap = 0

    init(configuration: InputConfiguration, path: String) throws(POSIX.Failure) {
        name = configuration.name
        let log = try RecordedLog.read(
            path,
            configuration: {
                var framing = configuration.framing
                framing.skipsCommentLines = true
                return framing
            }())
        sentences = log.sentences
        let times = LogTimeline.times(of: log.sentences, lineRate: 10)
        let first = times.first ?? 0
        offsets = times.map { $0 - first }
        // A lap lasts as long as the log plus the mean gap between two lines, so the loop does not stutter.
        let mean = offsets.count > 1 ? (offsets.last ?? 0) / Double(offsets.count - 1) : 1
        span = (offsets.last ?? 0) + mean
        loop = configuration.loop
        speed = configuration.speed
    }

    /// Seconds (runtime clock) until the next sentence is due; nil when the log is finished.
    func nextDue(since start: Double) -> Double? {
        guard next < sentences.count else { return nil }
        return start + (Double(lap) * span + offsets[next]) / speed
    }

    /// Hands over every sentence due by `now`.
    mutating func emitDue(at now: Double, since start: Double, _ body: (Sentence) -> Void) {
        while let due = nextDue(since: start), due <= now {
            body(sentences[next])
            next += 1
            if next == sentences.count && loop && span > 0 {
                next = 0
                lap += 1
            }
        }
    }
}
