import CPosix
import N2K
import Platform

/// A recorded bus played as a live one (the bench, a test, a replay to outputs): each line of a candump -l log,
/// canboat's plain or fast format, an old candump or a Yacht Devices RAW log at its recorded time after the first,
/// from the start again when `loop` is set. Lines without a time (an old candump) go at 200 a second. Read as it
/// plays, 64 KB at a time; a line that is not a frame is counted and passed over. Read only.
final class RecordedBus: BusTransport {
    let path: String
    let loop: Bool
    private var lines: LineFile?
    private var pending: (line: N2KLogLine, time: Double?)?
    private var startTime = 0.0
    private var first: Double?
    /// The replay clock of the last line given (for lines with no time of their own).
    private var played = 0.0
    private var lap = 0.0
    private var openFailed = false
    private(set) var unreadable = 0
    private var ended = false

    init(path: String, loop: Bool) {
        self.path = path
        self.loop = loop
    }

    var description: String { "file://" + path }
    var finished: Bool { ended }

    func start(at now: Double) {
        startTime = now
        do {
            lines = try LineFile(path: path)
        } catch {
            openFailed = true
            ended = true
        }
        readNext()
    }

    private func readNext() {
        pending = nil
        while let line = lines?.next() {
            guard let parsed = N2KLogLine.parse(line) else {
                if !line.isEmpty && line.first != UInt8(ascii: "#") { unreadable += 1 }
                continue
            }
            let time: Double? =
                switch parsed {
                case .frame(_, let time), .message(_, let time): time
                }
            pending = (parsed, time)
            return
        }
    }

    /// The loop's time the pending line is due at.
    private func due() -> Double? {
        guard let pending else { return nil }
        if let time = pending.time {
            if first == nil { first = time }
            return startTime + lap + max(0, time - (first ?? time))
        }
        return startTime + lap + played + 0.005
    }

    func prepare(now: Double, into set: inout PollSet) {}

    func nextDue(now: Double) -> Double? { ended ? nil : due() }

    func service(now: Double, polled set: PollSet, _ body: (BusReading) -> Void) {
        if openFailed {
            openFailed = false
            body(.problem(level: .error, id: "n2k.file", text: "n2k: cannot read \(path)"))
        }
        var given = 0
        while given < 2000, let due = due(), due <= now, let item = pending {
            played = due - startTime - lap
            switch item.line {
            case .frame(let frame, _): body(.frame(frame))
            case .message(let message, _): body(.message(message))
            }
            given += 1
            readNext()
            if pending == nil {
                guard loop, played > 0 else {
                    ended = true
                    return
                }
                lap += played + 0.1
                first = nil
                played = 0
                lines?.rewind()
                readNext()
            }
        }
    }

    func send(_ frame: CANFrame, now: Double) -> Bool { false }

    func close() { lines = nil }
}

/// A text file read a line at a time through a 64 KB buffer (a bus recording can be hundreds of megabytes).
final class LineFile {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private var start = 0
    private var end = 0
    private var atEnd = false

    init(path: String) throws(POSIX.Failure) {
        fd = try POSIX.openFile(path)
    }

    deinit { POSIX.close(fd) }

    /// The next line without its end (CR LF or LF); nil at the end of the file. A line longer than the buffer is cut.
    func next() -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[start..<end].firstIndex(of: 10) {
                var line = buffer[start..<newline]
                start = newline + 1
                if line.last == 13 { line = line.dropLast() }
                return line
            }
            if atEnd {
                guard start < end else { return nil }
                let line = buffer[start..<end]
                start = end
                return line
            }
            if start > 0 {
                buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
                end -= start
                start = 0
            }
            if end == buffer.count {
                // No line end in 64 KB: not a log; what is there is one line.
                start = end
                return buffer[0..<end]
            }
            let result = buffer.withUnsafeMutableBytes { bytes in
                POSIX.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: bytes[end...]))
            }
            switch result {
            case .bytes(let count): end += count
            default: atEnd = true
            }
        }
    }

    func rewind() {
        _ = lseek(fd, 0, SEEK_SET)
        start = 0
        end = 0
        atEnd = false
    }
}
