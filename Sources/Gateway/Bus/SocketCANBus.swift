import CPosix
import Marine
import N2K
import Platform

/// A SocketCAN interface (`can0`: a HAT's MCP2515, a CANable, vcan): one raw socket on the loop, non-blocking, error
/// frames read and said.
///
/// - **Error frames**: bus-off, a controller gone error-passive or back to error-active, a restart, nobody
///   acknowledging (alone on the bus, or a cable off) are said, each kind under its own log id (the log's limiter
///   keeps a flood of them to one line in 30 s), and counted.
/// - **Down and back**: a read or write that says the interface is gone (ENETDOWN, ENODEV, ENXIO) closes the socket;
///   it is reopened with backoff (0.5 s doubling to 10 s) and the log says both.
/// - **A full transmit queue** (ENOBUFS: the bus is busy or nobody acknowledges): frames wait in a queue of 256,
///   written when poll says the socket takes more; beyond that the oldest is dropped, counted.
final class SocketCANBus: BusTransport {
    struct Statistics {
        var framesIn = 0
        var framesOut = 0
        var errorFrames = 0
        var busOff = 0
        /// Frames with an 11-bit identifier, a remote request: not NMEA 2000.
        var refused = 0
        var dropped = 0
        var reopens = 0
    }

    let interface: String
    private var fd: Int32 = -1
    private var backoff = Backoff(first: 0.5, limit: 10)
    private var slot = PollSlot()
    private var queue: [CANFrame] = []
    private(set) var statistics = Statistics()
    private var pendingProblems: [BusReading] = []
    private var opened = false

    init(interface: String) { self.interface = interface }

    var description: String { "can://" + interface }
    var finished: Bool { false }

    func start(at now: Double) {}

    func prepare(now: Double, into set: inout PollSet) {
        if fd < 0 && backoff.isDue(now) { open(now) }
        guard fd >= 0 else { return slot.clear() }
        slot.register(fd, read: true, write: !queue.isEmpty, into: &set)
    }

    func nextDue(now: Double) -> Double? { fd < 0 ? backoff.retryAt : nil }

    private func open(_ now: Double) {
        do {
            fd = try POSIX.openCAN(interface)
            let again = backoff.succeeded() || opened
            opened = true
            if again { statistics.reopens += 1 }
            pendingProblems.append(.opened)
            pendingProblems.append(
                .problem(
                    level: again ? .notice : .info, id: "n2k.open",
                    text: "n2k: \(description) open" + (again ? " again" : "")))
        } catch {
            if backoff.failed(at: now) {
                pendingProblems.append(
                    .problem(
                        level: .warning, id: "n2k.open-failed",
                        text: "n2k: \(error); trying again (is the interface up? ip link set \(interface) up type can "
                            + "bitrate 250000)"))
            }
        }
    }

    private func lost(_ now: Double, _ code: Int32, _ body: (BusReading) -> Void) {
        POSIX.close(fd)
        fd = -1
        backoff.failed(at: now)
        body(
            .problem(
                level: .warning, id: "n2k.down",
                text: "n2k: \(description): \(POSIX.message(code)); closed, reopening when it comes back"))
    }

    static func isGone(_ code: Int32) -> Bool { code == ENETDOWN || code == ENODEV || code == ENXIO || code == EBADF }

    func service(now: Double, polled set: PollSet, _ body: (BusReading) -> Void) {
        for problem in pendingProblems { body(problem) }
        pendingProblems.removeAll()
        guard fd >= 0 else { return }
        flush(now, body)
        guard fd >= 0 else { return }
        // At most 512 frames a turn (a 250 kbit/s bus carries about 1 800 a second at most).
        for _ in 0..<512 {
            let (frame, failure) = POSIX.readCAN(fd)
            if let failure {
                if Self.isGone(failure) { return lost(now, failure, body) }
                body(
                    .problem(
                        level: .warning, id: "n2k.read", text: "n2k: \(description): \(POSIX.message(failure))"))
                return
            }
            guard let frame else { return }
            if frame.id & POSIX.canError != 0 {
                errorFrame(frame, body)
                continue
            }
            guard frame.id & POSIX.canExtended != 0, frame.id & POSIX.canRemote == 0 else {
                statistics.refused += 1
                continue
            }
            statistics.framesIn += 1
            body(.frame(CANFrame(id: frame.id & POSIX.canIdentifierMask, data: frame.data, count: frame.count)))
        }
    }

    /// An error frame said and counted.
    private func errorFrame(_ frame: POSIX.RawCANFrame, _ body: (BusReading) -> Void) {
        statistics.errorFrames += 1
        if frame.id & POSIX.canErrorBusOff != 0 { statistics.busOff += 1 }
        for reading in Self.readings(ofErrorFrame: frame, bus: description) { body(reading) }
    }

    /// What an error frame says, in words: its class in the identifier, the controller's state in its second byte.
    static func readings(ofErrorFrame frame: POSIX.RawCANFrame, bus description: String) -> [BusReading] {
        var out: [BusReading] = []
        let id = frame.id
        if id & POSIX.canErrorBusOff != 0 {
            out.append(
                .problem(
                    level: .error, id: "n2k.bus-off",
                    text: "n2k: \(description) is bus-off (too many transmit errors): nothing goes out until the "
                        + "controller restarts (restart-ms)"))
        }
        if id & POSIX.canErrorRestarted != 0 {
            out.append(
                .problem(level: .notice, id: "n2k.restarted", text: "n2k: \(description) restarted after bus-off"))
        }
        if id & POSIX.canErrorController != 0 {
            let state = UInt8(truncatingIfNeeded: frame.data >> 8)
            let words: String
            if state & 0x30 != 0 {
                words = "error-passive (many errors on the bus)"
            } else if state & 0x0C != 0 {
                words = "at the error warning level"
            } else if state & 0x03 != 0 {
                words = "losing frames (a buffer overflowed)"
            } else if state & 0x40 != 0 {
                words = "error-active again"
            } else {
                words = "reporting a problem"
            }
            out.append(
                .problem(
                    level: .warning, id: "n2k.controller", text: "n2k: \(description)'s controller is \(words)"))
        }
        if id & POSIX.canErrorNoAcknowledgement != 0 {
            out.append(
                .problem(
                    level: .warning, id: "n2k.no-ack",
                    text: "n2k: nothing on \(description) acknowledges our frames (alone on the bus, or a cable or "
                        + "terminator missing)"))
        }
        if id & POSIX.canErrorBusError != 0 {
            out.append(.problem(level: .info, id: "n2k.bus-error", text: "n2k: a bus error on \(description)"))
        }
        return out
    }

    func send(_ frame: CANFrame, now: Double) -> Bool {
        guard fd >= 0 else { return false }
        if queue.count >= 256 {
            queue.removeFirst()
            statistics.dropped += 1
        }
        queue.append(frame)
        if queue.count == 1 { flush(now) { _ in } }
        return true
    }

    /// Writes what waits, until the kernel's queue is full.
    private func flush(_ now: Double, _ body: (BusReading) -> Void) {
        var written = 0
        while written < queue.count {
            let frame = queue[written]
            let raw = POSIX.RawCANFrame(id: frame.id | POSIX.canExtended, count: frame.count, data: frame.data)
            let (sent, code) = POSIX.writeCAN(fd, raw)
            if sent {
                written += 1
                statistics.framesOut += 1
                continue
            }
            if code == ENOBUFS || code == EAGAIN { break }
            queue.removeFirst(written)
            if Self.isGone(code) {
                queue.removeAll()
                return lost(now, code, body)
            }
            // A frame the interface refuses (EINVAL, EMSGSIZE): dropped, counted.
            statistics.dropped += 1
            queue.removeFirst()
            written = 0
        }
        queue.removeFirst(written)
    }

    func close() {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
    }
}
