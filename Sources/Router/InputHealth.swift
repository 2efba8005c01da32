import NMEA

/// Whether each input's bytes can be read. An input whose bytes are nearly all lost to its framer (checksums that do
/// not match, no `$` or `!`, bytes no sentence has, no line end at all) is said once, with how much and the commonest
/// reason, and said again when it reads well. On a boat the usual cause is a serial port at the wrong speed (an AIS
/// receiver's 38,400 baud read at 4,800 makes a few bytes a second with never a line end), a wire on the wrong
/// terminal, or an input that is not NMEA 0183 text at all (an NMEA 2000 gateway's binary): until now such an input
/// said nothing (a line that never ends is not even counted as refused), and the instruments it should have fed were
/// never listed, so never lost either.
///
/// Counted in windows of ``window`` seconds, from the bytes the input received (the shell's count) and the bytes of
/// the sentences read from it: a window of at least ``least`` bytes of which at most a tenth made sentences makes the
/// input unreadable; a later window with at least half its bytes in sentences makes it readable again. A silent
/// window changes nothing (silence is the sensor-lost alarms' business). Sans-I/O: counts and the time are given; its
/// memory is a few numbers an input.
public struct InputHealth: Sendable {
    public static let window = 10.0
    public static let least = 100

    /// What changed for an input at the end of a window.
    public enum Change: Equatable, Sendable {
        /// `bytes` received in the window, `sentences` read from them; `reason`: the commonest a line was refused
        /// for (nil: no line ended).
        case unreadable(bytes: Int, sentences: Int, reason: RejectReason?)
        case readable
    }

    struct Watch: Sendable {
        var start: Double?
        /// The input's bytes received at the window's start (its running total, as the shell counts it).
        var startTotal: Int?
        var total = 0
        var readBytes = 0
        var sentences = 0
        var reasons = RejectCounts()
        var unreadable = false
    }

    private var watches: [Watch] = []

    public init() {}

    /// Whether input `index` is said to be unreadable now.
    public func isUnreadable(_ index: Int) -> Bool { index < watches.count && watches[index].unreadable }

    /// A sentence of `bytes` bytes (its line end included) read from input `index`: framed well, whatever the engine
    /// then makes of it.
    mutating func read(_ index: Int, bytes: Int) {
        grow(index)
        watches[index].readBytes &+= bytes
        watches[index].sentences &+= 1
    }

    /// A line of input `index` refused while framing, and why (nil: a sample that was not one).
    mutating func refused(_ index: Int, reason: RejectReason?) {
        grow(index)
        if let reason { watches[index].reasons.record(reason) }
    }

    /// The bytes input `index` has received since it was opened first (a running total; a total that goes down, a
    /// counter started again, starts the window again).
    mutating func received(_ index: Int, total: Int) {
        grow(index)
        if total < watches[index].total { watches[index].startTotal = nil }
        watches[index].total = total
    }

    /// The inputs whose state changed with a window that ended by `time`, by index.
    mutating func check(at time: Double) -> [(index: Int, change: Change)] {
        var changes: [(index: Int, change: Change)] = []
        for index in watches.indices {
            let watch = watches[index]
            guard let start = watch.start, let startTotal = watch.startTotal else {
                watches[index] = Watch(
                    start: time, startTotal: watch.total, total: watch.total, unreadable: watch.unreadable)
                continue
            }
            // A clock that went back starts the window again.
            guard time - start >= Self.window || time < start else { continue }
            if time >= start, let change = Self.verdict(watch, bytes: watch.total &- startTotal) {
                watches[index].unreadable = change != .readable
                changes.append((index, change))
            }
            watches[index] = Watch(
                start: time, startTotal: watch.total, total: watch.total, unreadable: watches[index].unreadable)
        }
        return changes
    }

    /// A window's verdict: a change of state, or nil.
    static func verdict(_ watch: Watch, bytes: Int) -> Change? {
        let read = min(watch.readBytes, bytes)
        if !watch.unreadable, bytes >= least, read <= bytes / 10 {
            var commonest: RejectReason?
            var most = 0
            for reason in RejectReason.allCases where watch.reasons[reason] > most {
                most = watch.reasons[reason]
                commonest = reason
            }
            return .unreadable(bytes: bytes, sentences: watch.sentences, reason: commonest)
        }
        if watch.unreadable, read > 0, read >= bytes / 2 { return .readable }
        return nil
    }

    private mutating func grow(_ index: Int) {
        while watches.count <= index { watches.append(Watch()) }
    }
}

extension InputHealth {
    /// "300 bytes in 10 s and no sentence in them (no $ or ! to start them)", as the log and Signal K say it.
    public static func words(bytes: Int, sentences: Int, reason: RejectReason?) -> String {
        "\(bytes) bytes in \(Int(window)) s and "
            + (sentences == 0 ? "no sentence" : sentences == 1 ? "1 sentence" : "only \(sentences) sentences")
            + " in them (" + (reason.map(Self.words) ?? "never a line end") + ")"
    }

    static func words(_ reason: RejectReason) -> String {
        switch reason {
        case .checksum: "checksums that do not match"
        case .missingChecksum, .malformedChecksum: "lines without a checksum"
        case .noStart: "lines without a $ or ! to start them"
        case .truncated: "sentences cut short"
        case .tooLong: "lines too long"
        case .invalidByte: "bytes no sentence has"
        case .badAddress: "no sentence's address"
        case .tagBlock: "broken tag blocks"
        default: reason.name
        }
    }
}
