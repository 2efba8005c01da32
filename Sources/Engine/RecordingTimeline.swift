import NMEA

/// A sentence placed on the replay clock.
public struct TimedSentence: Sendable {
    /// UNIX seconds.
    public var time: Double
    public var sentence: Sentence
    /// Which log it came from (index in the list of logs).
    public var log: Int

    public init(time: Double, sentence: Sentence, log: Int) {
        self.time = time
        self.sentence = sentence
        self.log = log
    }
}

/// Gives every sentence of a recorded log a time.
///
/// - A log with tag blocks (`\c:...\`) uses them; sentences without one between two tagged ones are spread evenly.
/// - A plain log uses its own UTC: the times of RMC, GGA, GLL, ZDA and BWC (centiseconds kept), unwrapped across
///   midnight. Sentences between two times are spread evenly; a clock that steps back a little (two devices)
///   is held, not followed backwards. The date comes from RMC or ZDA, else 1970-01-01.
/// - Either way a glitch (``LogClock``: a few times that leap away and come back) is left out, counted.
/// - A log with no time at all advances at `lineRate` sentences per second from `start`.
public enum RecordingTimeline {
    /// The times, UNIX seconds, one per sentence.
    public static func times(of sentences: [Sentence], lineRate: Double, start: Double = 0) -> [Double] {
        timeline(of: sentences, lineRate: lineRate, start: start).times
    }

    /// The times, and how many of the log's own times were a glitch and left out (``LogClock``).
    public static func timeline(of sentences: [Sentence], lineRate: Double, start: Double = 0)
        -> (times: [Double], glitches: Int)
    {
        var clues = TimeClues()
        for sentence in sentences { clues.add(sentence) }
        return clues.timeline(lineRate: lineRate, start: start)
    }

    /// The times of `count` lines from their anchors (tag-block times, else UTC times), spread between anchors.
    /// `anchors` is worked on in place (held monotonic): a long log's anchors are not copied.
    static func times(count: Int, anchors: inout [(index: Int, time: Double)], lineRate: Double, start: Double)
        -> [Double]
    {
        let step = 1 / max(lineRate, 1e-6)
        guard let first = anchors.first else {
            return (0..<count).map { start + Double($0) * step }
        }
        var times = Array(repeating: 0.0, count: count)
        // Held monotonic: a clock that steps back a little is held at its latest value.
        var latest = -Double.infinity
        for position in anchors.indices {
            latest = max(latest, anchors[position].time)
            anchors[position].time = latest
        }
        // Before the first time: spaced like the first interval, or at the line rate.
        let leadStep: Double
        if anchors.count > 1, anchors[1].index > first.index {
            leadStep = max(0, (anchors[1].time - first.time) / Double(anchors[1].index - first.index))
        } else {
            leadStep = step
        }
        for index in 0..<first.index { times[index] = first.time - Double(first.index - index) * leadStep }
        var lastStep = leadStep
        for position in anchors.indices {
            let (index, time) = anchors[position]
            times[index] = time
            let isLast = position + 1 == anchors.count
            let nextIndex = isLast ? count : anchors[position + 1].index
            let gap = nextIndex - index
            guard gap > 1 else { continue }
            // Between two times: spread evenly; across a leap (a logger paused), at the spacing they had before it.
            // After the last: keep the spacing of the first interval.
            var step = isLast ? leadStep : (anchors[position + 1].time - time) / Double(gap)
            if !isLast, anchors[position + 1].time - time > LogClock.leap {
                step = min(step, lastStep)
            } else {
                lastStep = step
            }
            for offset in 1..<gap { times[index + offset] = time + step * Double(offset) }
        }
        return times
    }

    /// Merges several timed logs into one sequence in time order; ties keep log order, then line order.
    public static func merge(_ logs: [[TimedSentence]]) -> [TimedSentence] {
        var merged = logs.flatMap { $0 }
        // Stable by construction: sort by (time, log, position in its log).
        var positions: [Int] = []
        positions.reserveCapacity(merged.count)
        for log in logs { positions.append(contentsOf: log.indices) }
        let order = merged.indices.sorted { a, b in
            if merged[a].time != merged[b].time { return merged[a].time < merged[b].time }
            if merged[a].log != merged[b].log { return merged[a].log < merged[b].log }
            return positions[a] < positions[b]
        }
        merged = order.map { merged[$0] }
        return merged
    }
}

/// What a log says about its own clock, gathered one sentence at a time: tag-block times, and the UTC of RMC, ZDA,
/// GGA, GLL and BWC (unwrapped across midnight once all are known). A long log's times are worked out without
/// holding its sentences.
public struct TimeClues {
    private var count = 0
    private var tagged: [(index: Int, time: Double)] = []
    /// Times of day, seconds after midnight.
    private var utc: [(index: Int, time: Double)] = []
    private var date: UTCDate?

    public init() {}

    public mutating func add(_ sentence: Sentence) {
        defer { count += 1 }
        if let milliseconds = sentence.tagBlock?.unixMilliseconds {
            tagged.append((count, Double(milliseconds) / 1000))
        }
        guard tagged.isEmpty, let message = try? Message(sentence) else { return }
        let time: UTCTime?
        switch message {
        case .rmc(let rmc):
            time = rmc.time
            if date == nil { date = rmc.date }
        case .zda(let zda):
            time = zda.time
            if date == nil { date = zda.date }
        case .gga(let gga): time = gga.time
        case .gll(let gll): time = gll.time
        case .bwc(let bwc): time = bwc.waypoint.time
        default: time = nil
        }
        guard let time else { return }
        utc.append((count, time.secondsOfDay))
    }

    /// One time per sentence added (UNIX seconds): tag-block times when the log has any, else UTC times, lines in
    /// between spread evenly, a log with neither at `lineRate` from `start`.
    /// Consumes the clues, working on their anchors in place: the peak memory of a long log's times is the
    /// anchors and the result, never a copy of either.
    public consuming func times(lineRate: Double, start: Double = 0) -> [Double] {
        timeline(lineRate: lineRate, start: start).times
    }

    /// The times, and how many of the log's own times were a glitch and left out (``LogClock``).
    public consuming func timeline(lineRate: Double, start: Double = 0) -> (times: [Double], glitches: Int) {
        if !tagged.isEmpty {
            utc = []
            let glitches = LogClock.settle(&tagged, daily: false)
            return (RecordingTimeline.times(count: count, anchors: &tagged, lineRate: lineRate, start: start), glitches)
        }
        let glitches = LogClock.settle(&utc, daily: true)
        let base = Double((date ?? UTCDate(year: 1970, month: 1, day: 1)).daysSinceEpoch) * 86_400
        for position in utc.indices { utc[position].time += base }
        return (RecordingTimeline.times(count: count, anchors: &utc, lineRate: lineRate, start: start), glitches)
    }
}
