import CPosix
import Marine
import NMEA
import Platform

/// A serial input: sentences from a device, reopened with backoff (at most 1 s between tries) after an error, a
/// hang-up, or silence longer than `silenceTimeout`. A device that is not there yet is waited for; one that is
/// refused, or is not a serial port, is said so, with what to do.
final class SerialInput: InputTransport {
    let name: String
    let port: SerialPort
    private(set) var framer: SentenceFramer
    private let silenceTimeout: Double
    private var lastData = 0.0
    private var backoff = Backoff()
    /// Whether the next failed open is said even within a run of failures: the first open after a loss is.
    private var sayNextFailure = false
    private let log: Log
    private(set) var reconnects = 0
    private var slot = PollSlot()
    /// One read's bytes, kept from one turn to the next.
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init(
        name: String, path: String, baud: Int, framing: FramerConfiguration, silenceTimeout: Double = 10, log: Log
    ) {
        self.name = name
        port = SerialPort(path: path, baud: baud)
        framer = SentenceFramer(configuration: framing)
        self.silenceTimeout = silenceTimeout
        self.log = log
    }

    func maintain(now: Double) {
        guard !port.isOpen, backoff.isDue(now) else { return }
        do {
            try port.open()
            lastData = now
            sayNextFailure = false
            if backoff.succeeded() { reconnects += 1 }
            log.notice(
                "input.connected", "input \(name): \(port.path) open at \(port.baud) baud",
                [("input", name), ("device", port.path), ("baud", "\(port.baud)")])
        } catch {
            // Said once a run of failures (the run a loss began included); the limiter keeps a changing reason to
            // one line in 30 s.
            let first = backoff.failed(at: now)
            if first || sayNextFailure {
                sayNextFailure = false
                log(
                    LogEvent(
                        error.isMissing ? .notice : .warning, error.isMissing ? "input.waiting" : "input.open-failed",
                        "input \(name): \(error)", [("input", name), ("device", port.path), ("errno", "\(error.code)")])
                )
            }
        }
    }

    func prepare(now: Double, into set: inout PollSet) {
        maintain(now: now)
        guard port.isOpen else { return slot.clear() }
        slot.register(port.descriptor, into: &set)
    }

    func nextDue(now: Double) -> Double? { port.isOpen ? nil : backoff.retryAt }

    var counts: String { ", \(framer.statistics.rejects.total) rejected, \(reconnects) reconnects" }

    var unreadableHint: String {
        "read at \(port.baud) baud: is that the device's speed? (AIS receivers send at 38400, most instruments at "
            + "4800), and its wires the right way round?"
    }

    var bytesReceived: Int? { framer.statistics.bytes }

    func close() { port.close() }

    func service(now: Double, polled set: PollSet, _ body: (InputEvent) -> Void) {
        guard port.isOpen else { return }
        let ready = slot.readiness(in: set)
        while true {
            let got = buffer.withUnsafeMutableBytes { port.read(into: $0) }
            guard let got else { return lost(now, "the device failed (unplugged?)", body) }
            if got == 0 { break }
            lastData = now
            buffer.withUnsafeBufferPointer {
                framer.feed(UnsafeBufferPointer(rebasing: $0[0..<got])) { body(InputEvent($0)) }
            }
        }
        if !ready.isDisjoint(with: [.hangUp, .error]) { return lost(now, "hang-up", body) }
        if now - lastData > silenceTimeout { return lost(now, "silent for \(Int(silenceTimeout)) s", body) }
    }

    private func lost(_ now: Double, _ reason: String, _ body: (InputEvent) -> Void) {
        port.close()
        framer.finish { body(InputEvent($0)) }
        backoff.failed(at: now)
        sayNextFailure = true
        log.warning(
            "input.lost", "input \(name): \(reason); reopening \(port.path)", [("input", name), ("device", port.path)])
    }
}
