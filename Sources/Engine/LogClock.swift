/// A recorded log's clock read through its glitches. A sentence with a valid checksum can still carry a time that
/// cannot be the log's: a GLL whose time field was mangled (00:47 in an afternoon's log), a second device whose clock
/// is hours out, a candump line whose timestamp lost a digit. Followed, one such time made the replay tick through the
/// hours it leapt (or a day, taken for midnight), or held the rest of the log at it, every later sentence at one
/// instant. Here a short run of times that leaps away from the clock and comes back to it is left out (counted);
/// a leap forward the times after it keep to is a real one (a logger paused) and is followed; a leap back they keep
/// to (a clock set back) is taken out: the log goes on from where its clock was, its lines in their order.
public enum LogClock {
    /// Seconds a time may move from the one before it and be followed without the times after it agreeing.
    public static let leap = 60.0
    /// The longest run of times that can be a glitch: a leap that this many times in a row keep to is followed.
    public static let glitchRun = 8

    /// Settles `anchors` (line index and time) in place: times of day (seconds after midnight) unwrapped across
    /// midnight when `daily`, else UNIX seconds as they are; a glitch's anchors removed, their lines then placed
    /// between the anchors either side of them. Returns how many anchors were removed.
    public static func settle(_ anchors: inout [(index: Int, time: Double)], daily: Bool) -> Int {
        var shifts: [(index: Int, shift: Double)] = []
        var dropped: [Int] = []
        return settle(&anchors, daily: daily, shifts: &shifts, dropped: &dropped)
    }

    /// The same, and where the clock was set back: from each `index` on, the log's times are `shift` seconds later
    /// (the total so far); `dropped` gets the line index of each anchor removed.
    public static func settle(
        _ anchors: inout [(index: Int, time: Double)], daily: Bool, shifts: inout [(index: Int, shift: Double)],
        dropped: inout [Int]
    ) -> Int {
        let count = anchors.count
        guard count > 1 else { return 0 }
        let lead = leadingGlitch(anchors, daily: daily)
        for position in 0..<lead { dropped.append(anchors[position].index) }
        var kept = 0
        var previous: Double?
        var day = 0.0
        var position = lead
        while position < count {
            let raw = anchors[position].time
            let time = previous.map { place(raw, after: $0, day: day, daily: daily) } ?? raw
            if let previous, abs(time - previous) > leap,
                let end = glitchEnd(anchors, from: position, after: previous, day: day, daily: daily)
            {
                for glitch in position..<end { dropped.append(anchors[glitch].index) }
                position = end
                continue
            }
            if daily { day = time - raw }
            if let held = previous, time < held - leap {
                shifts.append((anchors[position].index, (shifts.last?.shift ?? 0) + held - time))
                previous = time
            } else {
                // A step back of less than a leap is held (two devices a second apart): the clock stays where it is.
                previous = max(previous ?? time, time)
            }
            anchors[kept] = (anchors[position].index, time + (shifts.last?.shift ?? 0))
            kept += 1
            position += 1
        }
        let removed = count - kept
        anchors.removeLast(removed)
        return removed
    }

    /// A time of day put on the day that brings it nearest `previous` (after midnight, or back before it).
    static func place(_ raw: Double, after previous: Double, day: Double, daily: Bool) -> Double {
        guard daily else { return raw }
        var time = raw + day
        if time < previous - 43_200 { time += 86_400 } else if time > previous + 43_200 { time -= 86_400 }
        return time
    }

    /// Where a glitch that starts at `start` ends: the first anchor within ``glitchRun`` that is back in line with
    /// `previous`, or the log's end when it comes first (a leap nothing after it keeps to); nil when the leap is kept
    /// to.
    private static func glitchEnd(
        _ anchors: [(index: Int, time: Double)], from start: Int, after previous: Double, day: Double, daily: Bool
    ) -> Int? {
        let last = min(anchors.count - 1, start + glitchRun)
        if start < last {
            for position in (start + 1)...last
            where abs(place(anchors[position].time, after: previous, day: day, daily: daily) - previous) <= leap {
                return position
            }
        }
        return start + glitchRun < anchors.count ? nil : anchors.count
    }

    /// How many of the first anchors are a glitch before the log's clock: fewer than ``glitchRun`` of them, then a
    /// leap, then ``glitchRun`` steady steps.
    private static func leadingGlitch(_ anchors: [(index: Int, time: Double)], daily: Bool) -> Int {
        func step(_ a: Int, _ b: Int) -> Double {
            let from = anchors[a].time
            return place(anchors[b].time, after: from, day: 0, daily: daily) - from
        }
        let count = anchors.count
        guard count > glitchRun + 1 else { return 0 }
        for start in 1..<glitchRun where abs(step(start - 1, start)) > leap {
            guard start + glitchRun < count else { return 0 }
            return (start..<(start + glitchRun)).allSatisfy { abs(step($0, $0 + 1)) <= leap } ? start : 0
        }
        return 0
    }
}
