import CPosix
import Engine
import NMEA
import Platform
import Router

/// A recorded log played as a live input: each sentence at its log time (scaled by `speed`), from the start again
/// when `loop` is set. The bench profile feeds the demo voyage this way. A gap in the log (a logger paused for the
/// night) plays its first ten minutes, every value going stale as it did aboard, and skips the rest, as
/// `telltale replay` does (``ReplaySession/gapLimit``): a log input never sits silent for hours.
///
/// Kept small for a Pi: the log is read as it plays (``RecordingStream``: its times, 8 bytes a sentence, and one 16 KB
/// buffer framed at a time), never held whole, so a day's log plays in the memory of a minute's.
final class FileInput: InputTransport {
    let name: String
    private let stream: RecordingStream
    /// The log's first time, and how long a lap lasts (its span, gaps cut to ten minutes, plus one mean interval).
    private let first: Double
    private let span: Double
    private let loop: Bool
    private let speed: Double
    /// Laps completed (a looping input starts again at 0 each lap).
    private(set) var lap = 0
    /// The loop's start on the monotonic clock: the log's first sentence is due then.
    private var startTime = 0.0
    /// Log seconds skipped in this lap's gaps before the next sentence.
    private var skipped = 0.0
    /// The file gave fewer sentences than its first pass counted (it changed underneath): played out.
    private var cut = false

    init(configuration: InputConfiguration, path: String) throws(POSIX.Failure) {
        name = configuration.name
        var framing = configuration.framing
        framing.skipsCommentLines = true
        stream = try RecordingStream(path: path, index: 0, lineRate: 10, configuration: framing)
        first = stream.firstTime ?? 0
        let played = (stream.lastTime ?? first) - first - stream.gapExcess(over: ReplaySession.gapLimit)
        let mean = stream.count > 1 ? played / Double(stream.count - 1) : 1
        span = played + mean
        loop = configuration.loop
        speed = configuration.speed
    }

    func start(at time: Double) { startTime = time }

    /// What the log's first pass found that playing it leaves out or changes, for the gateway's log: lines refused,
    /// times out of line with the log's clock (left out, their lines placed between the times either side), gaps cut
    /// to ten minutes. Nil when nothing.
    var summary: String? {
        var parts: [String] = []
        let refused = stream.statistics.rejects.total
        if refused > 0 { parts.append("\(refused) line\(refused == 1 ? "" : "s") refused") }
        if stream.timeGlitches > 0 {
            parts.append(
                "\(stream.timeGlitches) time\(stream.timeGlitches == 1 ? "" : "s") out of line with its clock "
                    + "left out")
        }
        let gaps = stream.gaps(over: ReplaySession.gapLimit)
        if gaps.count > 0 {
            let minutes = Int((gaps.excess / 60).rounded())
            parts.append(
                "\(gaps.count) pause\(gaps.count == 1 ? "" : "s") of the logger cut to ten minutes "
                    + "(\(minutes) min skipped)")
        }
        return parts.isEmpty ? nil : "input \(name): \(stream.path): " + parts.joined(separator: "; ")
    }

    func prepare(now: Double, into set: inout PollSet) {}

    /// When (runtime clock) the next sentence is due; nil when the log is finished.
    func nextDue(now: Double) -> Double? {
        guard !cut, let time = stream.nextTime else { return nil }
        return startTime + (Double(lap) * span + time - first - skipped) / speed
    }

    var finished: Bool? { cut || stream.nextTime == nil }

    /// Hands over the sentences due by `now`, at most ``perTurn`` of them, and says when a looping log starts again.
    /// A loop held up (a busy card, a Pi under load, a log played at a hundred times) catches up over the next turns,
    /// which come at once while a sentence is due, with the outputs written between them. Handed over in one turn, a
    /// second's backlog at speed 100 (some 100 KB of output) would be more than a TCP client's 64 KiB queue holds, a
    /// reading client's as much as a stalled one's.
    func service(now: Double, polled set: PollSet, _ body: (InputEvent) -> Void) {
        var handed = 0
        while handed < Self.perTurn, let due = nextDue(now: now), due <= now {
            handed += 1
            guard let timed = stream.next() else {
                cut = true
                return
            }
            body(.sentence(timed.sentence))
            if let next = stream.nextTime, next - timed.time > ReplaySession.gapLimit {
                skipped += next - timed.time - ReplaySession.gapLimit
            }
            if stream.nextTime == nil && loop && span > 0 {
                skipped = 0
                stream.rewind()
                lap += 1
                body(.restarted(lap: lap))
            }
        }
    }

    /// Sentences handed over in one turn of the loop, at most.
    static let perTurn = 256
}
