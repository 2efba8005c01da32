/// The race start timer: a countdown through a sequence of signals (5, 4, 1 minutes and the gun by default), started,
/// paused, reset and synchronised to the nearest minute at a flag, running on after the gun as elapsed race time.
///
/// Pure: every command and question takes the engine time, so a replay of the same commands gives the same times.
public struct RaceTimer: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        case idle
        /// Counting down to (then up from) the gun at engine time `gun`.
        case running(gun: Double)
        /// Stopped with `remaining` seconds before the gun.
        case paused(remaining: Double)
    }

    /// Seconds before the gun at which a signal is made, longest first; the first is the sequence's length.
    public let sequence: [Double]
    /// Seconds before the gun at which the time left is spoken ("four minutes", "thirty seconds", "ten", "start").
    public let announcements: [Double]
    public private(set) var state = State.idle

    /// The announcements a crew expects: each whole minute of the sequence after its first, thirty and twenty
    /// seconds, ten to one, and the start.
    public static let defaultAnnouncements: [Double] =
        [240, 180, 120, 60, 30, 20] + (0...10).reversed().map(Double.init)

    /// - Parameters:
    ///   - sequenceMinutes: minutes before the gun of each signal (`[5, 4, 1, 0]`); at least one, none negative.
    ///   - announceSeconds: seconds before the gun at which the time left is spoken; those outside the sequence
    ///     (before its start) never come.
    public init(sequenceMinutes: [Double] = [5, 4, 1, 0], announceSeconds: [Double] = RaceTimer.defaultAnnouncements) {
        let seconds = sequenceMinutes.filter { $0 >= 0 && $0.isFinite }.map { $0 * 60 }.sorted(by: >)
        sequence = seconds.isEmpty ? [300, 0] : seconds
        let first = sequence[0]
        var announced: [Double] = []
        for value in announceSeconds.sorted(by: >) where value >= 0 && value < first && value.isFinite {
            if announced.last != value { announced.append(value) }
        }
        announcements = announced
    }

    /// Starts the sequence from its beginning, or resumes a paused one; a running timer goes on unchanged.
    public mutating func start(at now: Double) {
        switch state {
        case .idle: state = .running(gun: now + sequence[0])
        case .paused(let remaining): state = .running(gun: now + remaining)
        case .running: break
        }
    }

    /// Holds the countdown where it is (before the gun only: race time is not paused).
    public mutating func pause(at now: Double) {
        guard case .running(let gun) = state, gun > now else { return }
        state = .paused(remaining: gun - now)
    }

    public mutating func reset() { state = .idle }

    /// Rounds the time left to the nearest whole minute, as a crew does when a signal is made: 4:07 becomes 4:00,
    /// 3:52 becomes 4:00. An idle timer starts its sequence.
    public mutating func sync(at now: Double) {
        switch state {
        case .idle:
            start(at: now)
        case .running(let gun):
            guard gun > now else { return }
            state = .running(gun: now + ((gun - now) / 60).rounded() * 60)
        case .paused(let remaining):
            state = .paused(remaining: (remaining / 60).rounded() * 60)
        }
    }

    /// Seconds to the gun: positive before it, negative after (the race time); nil when idle.
    public func timeToStart(at now: Double) -> Double? {
        switch state {
        case .idle: nil
        case .running(let gun): gun - now
        case .paused(let remaining): remaining
        }
    }

    /// The announcements (seconds before the gun) whose moment falls after `previous` and at or before `now`.
    public func announcements(after previous: Double, through now: Double) -> [Double] {
        guard case .running(let gun) = state else { return [] }
        return announcements.filter { gun - $0 > previous && gun - $0 <= now }
    }

    /// The words for `seconds` before the gun: "start", "ten", "thirty seconds", "one minute", "four minutes",
    /// "two minutes thirty".
    public static func words(secondsBefore seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole <= 0 { return "start" }
        if whole <= 10 { return number(whole) }
        let minutes = whole / 60
        let rest = whole % 60
        if minutes == 0 { return number(rest) + " seconds" }
        let head = minutes == 1 ? "one minute" : number(minutes) + " minutes"
        return rest == 0 ? head : head + " " + number(rest)
    }

    static func number(_ value: Int) -> String {
        let ones = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
        ]
        let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        if value < 0 { return "minus " + number(-value) }
        if value < 20 { return ones[value] }
        if value < 100 { return tens[value / 10] + (value % 10 == 0 ? "" : " " + ones[value % 10]) }
        return String(value)
    }

    /// The signals (seconds before the gun) whose moment falls after `previous` and at or before `now`.
    public func signals(after previous: Double, through now: Double) -> [Double] {
        guard case .running(let gun) = state else { return [] }
        return sequence.filter { gun - $0 > previous && gun - $0 <= now }
    }
}
