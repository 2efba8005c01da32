import CPosix
import CSerialPort
import NMEA

/// One serial device through libserialport: owns the `sp_port`, opens it 8N1 at the configured baud rate.
///
/// The configured name is resolved before every open (`/dev/serial0`, `/dev/serial/by-id/...` are symlinks that
/// libserialport cannot open), so a USB adapter that comes back under another ttyUSB number is found again.
final class SerialPort {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    let path: String
    let baud: Int
    private(set) var port: OpaquePointer?
    private(set) var descriptor: Int32 = -1

    init(path: String, baud: Int) {
        self.path = path
        self.baud = baud
    }

    deinit { close() }

    var isOpen: Bool { port != nil }

    func open() throws(Failure) {
        close()
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX))
        let device = realpath(path, &resolved) != nil ? String(cString: resolved) : path
        var handle: OpaquePointer?
        try check(sp_get_port_by_name(device, &handle), "not a serial port (\(device))")
        guard let handle else { throw Failure(path: path, reason: "no port") }
        if sp_open(handle, SP_MODE_READ_WRITE) != SP_OK {
            let reason = String(cString: sp_last_error_message())
            sp_free_port(handle)
            throw Failure(path: path, reason: "cannot open \(device): \(reason)")
        }
        port = handle
        do {
            try check(sp_set_baudrate(handle, Int32(baud)), "baud \(baud)")
            try check(sp_set_bits(handle, 8), "8 data bits")
            try check(sp_set_parity(handle, SP_PARITY_NONE), "no parity")
            try check(sp_set_stopbits(handle, 1), "1 stop bit")
            try check(sp_set_flowcontrol(handle, SP_FLOWCONTROL_NONE), "no flow control")
        } catch {
            close()
            throw error
        }
        var fd: Int32 = -1
        sp_get_port_handle(handle, &fd)
        descriptor = fd
    }

    func close() {
        guard let port else { return }
        sp_close(port)
        sp_free_port(port)
        self.port = nil
        descriptor = -1
    }

    /// Reads what is there: the count, 0 for nothing, nil when the device failed (unplugged).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let port else { return nil }
        let got = sp_nonblocking_read(port, buffer.baseAddress, buffer.count)
        return got.rawValue >= 0 ? Int(got.rawValue) : nil
    }

    /// Writes without blocking; the count written, nil when the device failed.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let port else { return nil }
        let written = sp_nonblocking_write(port, bytes.baseAddress, bytes.count)
        return written.rawValue >= 0 ? Int(written.rawValue) : nil
    }

    private func check(_ result: sp_return, _ what: String) throws(Failure) {
        guard result == SP_OK else {
            throw Failure(path: path, reason: "\(what): \(String(cString: sp_last_error_message()))")
        }
    }
}

/// A serial input: sentences from a device, reopened with backoff (at most 1 s between tries) after an error, a
/// hang-up, or silence longer than `silenceTimeout`.
final class SerialInput: InputTransport {
    let name: String
    let port: SerialPort
    private(set) var framer: SentenceFramer
    private let silenceTimeout: Double
    private var lastData = 0.0
    private var retryAt = 0.0
    private var backoff = 0.1
    private var failingSince: Double?
    private let log: Log
    private(set) var reconnects = 0
    private var slot = PollSlot()

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
        guard !port.isOpen, now >= retryAt else { return }
        do {
            try port.open()
            lastData = now
            backoff = 0.1
            if failingSince != nil { reconnects += 1 }
            failingSince = nil
            log.notice(
                "input.connected", "input \(name): \(port.path) open at \(port.baud) baud",
                [("input", name), ("device", port.path), ("baud", "\(port.baud)")])
        } catch {
            if failingSince == nil {
                failingSince = now
                log.warning(
                    "input.open-failed", "input \(name): \(error); retrying", [("input", name), ("device", port.path)])
            }
            retryAt = now + backoff
            backoff = min(backoff * 2, 1)
        }
    }

    func prepare(now: Double, into fds: inout [pollfd]) {
        maintain(now: now)
        guard port.isOpen else { return slot.clear() }
        slot.register(port.descriptor, events: Int16(POLLIN), into: &fds)
    }

    var counts: String { ", \(framer.statistics.rejects.total) rejected, \(reconnects) reconnects" }

    func close() { port.close() }

    func service(now: Double, polled fds: [pollfd], _ body: (InputEvent) -> Void) {
        guard port.isOpen else { return }
        let revents = slot.revents(in: fds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = buffer.withUnsafeMutableBytes { port.read(into: $0) }
            guard let got else { return lost(now, "the device failed (unplugged?)", body) }
            if got == 0 { break }
            lastData = now
            buffer.withUnsafeBufferPointer {
                framer.feed(UnsafeBufferPointer(rebasing: $0[0..<got])) { body(InputEvent($0)) }
            }
        }
        if revents & Int16(POLLHUP | POLLERR) != 0 { return lost(now, "hang-up", body) }
        if now - lastData > silenceTimeout { return lost(now, "silent for \(Int(silenceTimeout)) s", body) }
    }

    private func lost(_ now: Double, _ reason: String, _ body: (InputEvent) -> Void) {
        port.close()
        framer.finish { body(InputEvent($0)) }
        failingSince = now
        retryAt = now + backoff
        log.warning(
            "input.lost", "input \(name): \(reason); reopening \(port.path)", [("input", name), ("device", port.path)])
    }
}

/// A serial output: NMEA 0183 at 4800 baud carries about 480 bytes a second. Sentences beyond that budget are
/// thinned, pass-through before computed ones, and counted; nothing is queued without bound.
final class SerialOutput: OutputTransport {
    let name: String
    let port: SerialPort
    private let log: Log
    private var budget: Double
    private var lastRefill = 0.0
    private(set) var thinned = 0
    /// Sentences that found the device closed (missing, or failed and not yet back).
    private(set) var lost = 0
    private var retryAt = 0.0
    private var failedOpens = 0

    init(name: String, path: String, baud: Int, log: Log) {
        self.name = name
        self.log = log
        port = SerialPort(path: path, baud: baud)
        budget = Double(baud) / 10
    }

    /// Sends a sentence if the line has room for it now. A device that cannot be opened is tried again once a
    /// second, and the log says why (the runtime's limiter keeps that to one line per 30 s).
    func send(_ bytes: UnsafeRawBufferPointer, computed: Bool, now: Double) {
        if !port.isOpen {
            guard now >= retryAt else {
                lost += 1
                return
            }
            do {
                try port.open()
                if failedOpens > 0 {
                    log.notice(
                        "output.connected", "output \(name): \(port.path) opened after \(failedOpens) failed tries",
                        [("output", name), ("device", port.path)])
                }
                failedOpens = 0
            } catch {
                failedOpens += 1
                retryAt = now + 1
                lost += 1
                log.warning(
                    "output.open-failed",
                    "output \(name): cannot open \(port.path): \(error); trying again every second",
                    [("output", name), ("device", port.path)])
                return
            }
        }
        let perSecond = Double(port.baud) / 10
        budget = min(perSecond, budget + (now - lastRefill) * perSecond)
        lastRefill = now
        // Computed sentences may use the whole second's budget; pass-through leaves a quarter of it free for them.
        let reserve = computed ? 0 : perSecond / 4
        guard Double(bytes.count) <= budget - reserve else {
            thinned += 1
            return
        }
        budget -= Double(bytes.count)
        if port.write(bytes) == nil {
            port.close()
            log.warning(
                "output.lost", "output \(name): \(port.path) failed; reopening",
                [("output", name), ("device", port.path)])
        }
    }

    var counts: String {
        ", \(thinned) thinned to fit the line" + (lost > 0 ? ", \(lost) lost while the device was closed" : "")
    }
}
