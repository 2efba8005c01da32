import Bridge
import Engine
import N2K
import NMEA
import Platform

/// A log a replay reads: an NMEA 0183 log (``RecordingStream``) or a recorded NMEA 2000 bus
/// (``N2KRecordingStream``). Each names the sources its sentences come from; a sentence's `log` is its source's place
/// in ``sourceNames``.
public protocol ReplayLog: AnyObject {
    /// Sentences (0183) or lines (2000) the log holds, for the progress bar.
    var count: Int { get }
    var statistics: FramerStatistics { get }
    var nextTime: Double? { get }
    func next() -> TimedSentence?
    var sourceNames: [String] { get }
    /// The log's own times left out as a glitch (``LogClock``).
    var timeGlitches: Int { get }
}

extension RecordingStream: ReplayLog {
    public var sourceNames: [String] { ["log\(index)"] }
}

/// A recorded NMEA 2000 bus replayed (candump -l, canboat's plain or fast format, an old candump, Yacht Devices RAW):
/// each message read into 0183 sentences by the gateway's own converter (``N2KBus``, listening only), each sentence
/// at its message's time and from its device. A first pass learns the devices (by the NAME each address claimed, else
/// by address) so that the replay's sources are known before it starts; the second converts as it plays, 64 KB of
/// the file at a time. Lines without a time (an old candump) come `1 / lineRate` apart.
public final class N2KRecordingStream: ReplayLog {
    public let path: String
    public let count: Int
    public let statistics = FramerStatistics()
    public let sourceNames: [String]
    private let devices: [UInt8: Int]
    private let lineRate: Double
    private var file: LineFile?
    private var bus: N2KBus
    private var pending: [TimedSentence] = []
    private var pendingNext = 0
    private var lastTime = 0.0
    /// The lines (counted among those read as frames or messages) whose time is a glitch (``LogClock``): each is
    /// placed at the time before it. Times never go back: a step back is held.
    private let glitchLines: Set<Int>
    /// Where the recording's clock was set back, taken out (``LogClock``): from each line on, its times this later.
    private let shifts: [(index: Int, shift: Double)]
    private var shiftsPassed = 0
    private var linesRead = 0
    public var timeGlitches: Int { glitchLines.count }
    /// Lines that were not a frame or a message.
    public private(set) var unreadable = 0

    /// `prefix` names the sources (`log0` makes `log0:c0a8...`).
    public init(path: String, prefix: String, lineRate: Double) throws(POSIX.Failure) {
        self.path = path
        self.lineRate = lineRate
        let scan = try LineFile(path: path)
        var receiver = N2KReceiver()
        var order: [UInt8] = []
        var names: [UInt8: DeviceName] = [:]
        var lines = 0
        var anchors: [(index: Int, time: Double)] = []
        while let line = scan.next() {
            guard let parsed = N2KLogLine.parse(line) else { continue }
            defer { lines += 1 }
            var messages: [N2KMessage] = []
            switch parsed {
            case .frame(let frame, let time):
                if let time { anchors.append((lines, time)) }
                receiver.feed(frame, at: time ?? 0) { messages.append($0) }
            case .message(let message, let time):
                if let time { anchors.append((lines, time)) }
                messages.append(message)
            }
            for message in messages where message.source < 252 {
                if !order.contains(message.source) { order.append(message.source) }
                if message.pgn == 60928, names[message.source] == nil, let name = DeviceName(message.payload) {
                    names[message.source] = name
                }
            }
        }
        count = lines
        var shifts: [(index: Int, shift: Double)] = []
        var dropped: [Int] = []
        _ = LogClock.settle(&anchors, daily: false, shifts: &shifts, dropped: &dropped)
        glitchLines = Set(dropped)
        self.shifts = shifts
        var devices: [UInt8: Int] = [:]
        var sourceNames: [String] = []
        for address in order {
            devices[address] = sourceNames.count
            sourceNames.append(prefix + ":" + (names[address]?.hex ?? "@\(address)"))
        }
        self.devices = devices
        self.sourceNames = sourceNames
        var settings = N2KBus.Settings(
            node: N2KService.nodeSettings(unique: 0, N2KConfiguration(bus: .file(path: path)), address: nil))
        settings.listenOnly = true
        bus = N2KBus(settings: settings)
        file = try LineFile(path: path)
    }

    public var nextTime: Double? {
        fill()
        return pendingNext < pending.count ? pending[pendingNext].time : nil
    }

    public func next() -> TimedSentence? {
        fill()
        guard pendingNext < pending.count else { return nil }
        defer { pendingNext += 1 }
        return pending[pendingNext]
    }

    /// Converts lines until one gives a sentence, or the file ends.
    private func fill() {
        guard pendingNext >= pending.count else { return }
        pending.removeAll(keepingCapacity: true)
        pendingNext = 0
        while pending.isEmpty, let line = file?.next() {
            guard let parsed = N2KLogLine.parse(line) else {
                if !line.isEmpty && line.first != UInt8(ascii: "#") { unreadable += 1 }
                continue
            }
            switch parsed {
            case .frame(let frame, let time):
                lastTime = clock(time)
                bus.received(frame, at: lastTime) { take($0) }
            case .message(let message, let time):
                lastTime = clock(time)
                bus.received(message, at: lastTime) { take($0) }
            }
        }
    }

    /// The time of the line just read: its own, unless a glitch or a step back; one line's interval on when none.
    private func clock(_ time: Double?) -> Double {
        defer { linesRead += 1 }
        guard let time else { return lastTime + 1 / max(lineRate, 0.001) }
        while shiftsPassed < shifts.count, shifts[shiftsPassed].index <= linesRead { shiftsPassed += 1 }
        let shift = shiftsPassed > 0 ? shifts[shiftsPassed - 1].shift : 0
        return glitchLines.contains(linesRead) ? lastTime : max(lastTime, time + shift)
    }

    private func take(_ action: N2KBus.Action) {
        guard case .sentence(let sentence, let address, _) = action, let device = devices[address] else { return }
        pending.append(TimedSentence(time: lastTime, sentence: sentence, log: device))
    }

    /// Whether a file is a recorded NMEA 2000 bus: its first line that is not a comment reads as one.
    public static func isBus(_ path: String) -> Bool {
        guard let file = try? LineFile(path: path) else { return false }
        var looked = 0
        while let line = file.next(), looked < 50 {
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            looked += 1
            // A 0183 sentence is not a bus line (a `$`, `!` or tag block start).
            if line.first == UInt8(ascii: "$") || line.first == UInt8(ascii: "!") || line.first == UInt8(ascii: "\\") {
                return false
            }
            return N2KLogLine.parse(line) != nil
        }
        return false
    }
}
