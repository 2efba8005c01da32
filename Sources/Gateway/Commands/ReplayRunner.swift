import Engine
import NMEA
import Platform
import Router
import SignalK

/// Replays recorded logs through the engine: the I/O side of `telltale replay` (pacing, writing, comparing).
public struct ReplayRunner {
    public struct Options: Sendable {
        /// nil: as fast as the machine goes; otherwise replay seconds per wall-clock second.
        public var speed: Double? = 1
        public var computedOnly = false
        /// Prefix every line with `\c:<UNIX ms>*hh\`.
        public var tagTime = false
        /// Sentences per second for a log that carries no time at all.
        public var lineRate = 10.0
        public var tickRate = 10.0
        /// Show a progress bar on standard error (only when it is a terminal).
        public var progress = true
        /// The Signal K model to feed, when the replay writes its delta stream.
        public var signalK: SignalKModel?
        /// Updates a second of the derived values in the delta stream.
        public var signalKRate = 2.0
        /// The crew's commands at moments of the replay (``ReplaySession/ScheduledCommand``).
        public var commands: [ReplaySession.ScheduledCommand] = []

        public init() {}
    }

    public let engine: Engine
    public let options: Options

    public init(engine: Engine, options: Options) {
        self.engine = engine
        self.options = options
    }

    /// The result of a run.
    public struct Result: Sendable {
        public var summary: ReplaySession.Summary
        public var rejects: RejectCounts
        public var sentencesRead: Int
        /// The logs' own times left out as glitches (``LogClock``).
        public var timeGlitches = 0
        /// The IMU trace's samples out of line with its clock, left out.
        public var imuTimeGlitches = 0
    }

    /// Replays logs framed in memory (tests, small inputs), handing each output line (with CR LF) to `write`.
    public func run(
        _ logs: [Recording], imu: IMUFile? = nil, write: (UnsafeRawBufferPointer) -> Void,
        writeDeltas: (UnsafeRawBufferPointer) -> Void = { _ in }
    ) -> Result {
        var engine = self.engine
        var timed: [[TimedSentence]] = []
        var rejects = RejectCounts()
        var sources: [SourceID] = []
        var glitches = 0
        for (index, log) in logs.enumerated() {
            sources.append(engine.source(named: "log\(index)"))
            let (times, logGlitches) = RecordingTimeline.timeline(of: log.sentences, lineRate: options.lineRate)
            glitches += logGlitches
            timed.append(zip(times, log.sentences).map { TimedSentence(time: $0, sentence: $1, log: index) })
            for reason in RejectReason.allCases { rejects[reason] += log.statistics.rejects[reason] }
        }
        let timeline = RecordingTimeline.merge(timed)
        var position = 0
        var result = run(
            engine: engine, sources: sources, count: timeline.count, rejects: rejects, imu: imu, write: write,
            writeDeltas: writeDeltas
        ) {
            defer { position += 1 }
            return position < timeline.count ? timeline[position] : nil
        }
        result.timeGlitches = glitches
        result.imuTimeGlitches = imu?.timeGlitches ?? 0
        return result
    }

    /// Replays log files read as they play (``RecordingStream``, ``N2KRecordingStream``): memory flat in the logs'
    /// length. Each log's sources are registered in order (an 0183 log is one; a recorded bus, one a device).
    public func run(
        _ logs: [any ReplayLog], imu: IMUFile? = nil, write: (UnsafeRawBufferPointer) -> Void,
        writeDeltas: (UnsafeRawBufferPointer) -> Void = { _ in }
    ) -> Result {
        var engine = self.engine
        var rejects = RejectCounts()
        var sources: [SourceID] = []
        var bases: [Int] = []
        for log in logs {
            bases.append(sources.count)
            for name in log.sourceNames { sources.append(engine.source(named: name)) }
            for reason in RejectReason.allCases { rejects[reason] += log.statistics.rejects[reason] }
        }
        // A log's sentences come with their source's place in the log; in the replay, after the sources before it.
        let next = { () -> TimedSentence? in
            var best: Int?
            for (position, log) in logs.enumerated() {
                guard let time = log.nextTime else { continue }
                if let b = best, let bestTime = logs[b].nextTime, bestTime <= time { continue }
                best = position
            }
            guard let best, var item = logs[best].next() else { return nil }
            item.log = bases[best] + (logs[best] is RecordingStream ? 0 : item.log)
            return item
        }
        var result = run(
            engine: engine, sources: sources, count: logs.reduce(0) { $0 + $1.count }, rejects: rejects, imu: imu,
            write: write, writeDeltas: writeDeltas, next: next)
        result.timeGlitches = logs.reduce(0) { $0 + $1.timeGlitches }
        result.imuTimeGlitches = imu?.timeGlitches ?? 0
        return result
    }

    private func run(
        engine: Engine, sources: [SourceID], count: Int, rejects: RejectCounts, imu: IMUFile?,
        write: (UnsafeRawBufferPointer) -> Void, writeDeltas: (UnsafeRawBufferPointer) -> Void = { _ in },
        next: () -> TimedSentence?
    ) -> Result {
        var engine = engine
        var session = ReplaySession(engine: engine, options: sessionOptions)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        let wallStart = POSIX.monotonic()
        var origin: Double?
        let total = max(count, 1)
        var processed = 0
        var lastPercent = -1
        let showProgress = options.progress && options.speed == nil && POSIX.isTerminal(2) && count > 10_000
        let imuSource = engine.source(named: "imu")
        var imuIndex = 0
        let samples = imu?.samples ?? []
        let nextIMU = { () -> ReplaySession.IMUEvent? in
            defer { imuIndex += 1 }
            return imuIndex < samples.count ? samples[imuIndex] : nil
        }
        // The Signal K delta stream, made as the live gateway makes it (``SignalKFeed``): what the engine took and
        // holds into the model, and after each tick one delta of what changed.
        var feed = options.signalK.map { SignalKFeed(model: $0, updateRate: options.signalKRate) }
        for source in sources { feed?.name(source, engine.name(of: source)) }
        withoutActuallyEscaping(writeDeltas) { writeDeltas in
            let observe: ((Router.Action) -> Void)? =
                feed == nil
                ? nil
                : { action in
                    feed!.take(action)
                    guard case .report = action else { return }
                    let updates = feed!.takeUpdates()
                    var text = updates.isEmpty ? "" : feed!.model.delta(updates) + "\n"
                    // The AIS stations' deltas after the boat's, each in its own context.
                    for delta in feed!.takeTrafficDeltas() { text += delta.text + "\n" }
                    guard !text.isEmpty else { return }
                    let line = Array(text.utf8)
                    line.withUnsafeBytes { writeDeltas($0) }
                }
            session.run(next: next, sources: sources, nextIMU: nextIMU, imuSource: imuSource, observe: observe) { out in
                if let speed = options.speed, speed > 0 {
                    // The first line out is on the replay's origin (its earliest sentence or sample).
                    let start = origin ?? out.playTime
                    origin = start
                    let due = wallStart + (out.playTime - start) / speed
                    if due > POSIX.monotonic() {
                        flush(&buffer, write)
                        POSIX.sleep(until: due)
                    }
                }
                if options.tagTime {
                    let block = TagBlock(unixMilliseconds: Int64((out.time * 1000).rounded()))
                    buffer.append(contentsOf: block.encoded())
                }
                out.sentence.appendWire(to: &buffer)
                if options.speed != nil || buffer.count >= 1 << 16 { flush(&buffer, write) }
                if !out.isComputed {
                    processed += 1
                    if showProgress {
                        let percent = processed * 100 / total
                        if percent != lastPercent {
                            lastPercent = percent
                            POSIX.writeAll(2, "\r" + ReplayRunner.bar(percent))
                        }
                    }
                }
            }
        }
        flush(&buffer, write)
        if showProgress { POSIX.writeAll(2, "\r" + String(repeating: " ", count: 60) + "\r") }
        return Result(summary: session.summary, rejects: rejects, sentencesRead: count)
    }

    private var sessionOptions: ReplaySession.Options {
        var options = ReplaySession.Options()
        options.tickRate = self.options.tickRate
        options.computedOnly = self.options.computedOnly
        options.commands = self.options.commands
        return options
    }

    private func flush(_ buffer: inout [UInt8], _ write: (UnsafeRawBufferPointer) -> Void) {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { write($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    static func bar(_ percent: Int) -> String {
        let filled = percent * 40 / 100
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 40 - filled)
            + "] \(percent)%"
    }
}

/// Compares output with a golden file, line by line.
public enum GoldenComparison {
    public struct Difference: Hashable, Sendable {
        /// Line number, from 1.
        public var line: Int
        public var expected: String?
        public var actual: String?

        public init(line: Int, expected: String?, actual: String?) {
            self.line = line
            self.expected = expected
            self.actual = actual
        }
    }

    /// The first `limit` differing lines (a missing line on either side counts).
    public static func differences(expected: [UInt8], actual: [UInt8], limit: Int = 5) -> [Difference] {
        let expectedLines = lines(expected)
        let actualLines = lines(actual)
        var found: [Difference] = []
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let e = index < expectedLines.count ? expectedLines[index] : nil
            let a = index < actualLines.count ? actualLines[index] : nil
            if e != a {
                found.append(Difference(line: index + 1, expected: e, actual: a))
                if found.count >= limit { break }
            }
        }
        return found
    }

    static func lines(_ bytes: [UInt8]) -> [String] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            var text = Array(line)
            if text.last == 0x0D { text.removeLast() }
            return String(decoding: text, as: UTF8.self)
        }.reversed().drop { $0.isEmpty }.reversed()
    }
}
