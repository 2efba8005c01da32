import CPosix
import Marine
import N2K
import Platform

/// A Yacht Devices Wi-Fi or Ethernet gateway (YDWG-02, YDEN-02) in RAW mode: each frame a text line,
/// `17:33:21.107 R 19F51323 01 2F 30 70 00 2F 30 70`, received (`R`) or sent by the gateway for us (`T`, passed
/// over). Over TCP, frames to send go the same way without the time and direction (`19F51323 01 2F ...` and CR LF);
/// over UDP the gateway's broadcast is read only. Reconnected with backoff (0.5 s doubling to 10 s).
final class YachtDevicesBus: BusTransport {
    let host: String
    let port: Int
    /// TCP (read and write) or UDP (read).
    let stream: Bool
    private var fd: Int32 = -1
    private var connecting = false
    private var backoff = Backoff(first: 0.5, limit: 10)
    private var slot = PollSlot()
    private var line: [UInt8] = []
    private var outgoing: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 8192)
    private var pendingProblems: [BusReading] = []
    private(set) var unreadable = 0

    init(host: String, port: Int, stream: Bool) {
        self.host = host
        self.port = port
        self.stream = stream
    }

    var description: String { (stream ? "ydraw+tcp://" : "ydraw+udp://") + "\(host):\(port)" }
    var finished: Bool { false }

    func start(at now: Double) {}

    func nextDue(now: Double) -> Double? { fd < 0 ? backoff.retryAt : nil }

    func prepare(now: Double, into set: inout PollSet) {
        if fd < 0 && backoff.isDue(now) { open(now) }
        guard fd >= 0 else { return slot.clear() }
        slot.register(fd, read: !connecting, write: connecting || !outgoing.isEmpty, into: &set)
    }

    private func open(_ now: Double) {
        guard let address = POSIX.SocketAddress(host: host, port: port) else {
            if backoff.failed(at: now) {
                pendingProblems.append(
                    .problem(level: .error, id: "n2k.address", text: "n2k: \(host) is not a numeric IP address"))
            }
            return
        }
        do {
            fd = try POSIX.socket(stream ? .stream : .datagram, for: address, naming: description)
            if stream {
                connecting = !(try POSIX.connect(fd, to: address, naming: description))
                if !connecting { connected() }
            } else {
                try POSIX.bind(fd, to: address, listen: false, naming: description)
                connected()
            }
        } catch {
            if fd >= 0 { POSIX.close(fd) }
            fd = -1
            if backoff.failed(at: now) {
                pendingProblems.append(.problem(level: .warning, id: "n2k.open-failed", text: "n2k: \(error)"))
            }
        }
    }

    private func connected() {
        connecting = false
        let again = backoff.succeeded()
        pendingProblems.append(.opened)
        pendingProblems.append(
            .problem(level: again ? .notice : .info, id: "n2k.open", text: "n2k: \(description) connected"))
    }

    private func lost(_ now: Double, _ reason: String, _ body: (BusReading) -> Void) {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
        connecting = false
        line.removeAll()
        outgoing.removeAll()
        backoff.failed(at: now)
        body(.problem(level: .warning, id: "n2k.down", text: "n2k: \(description): \(reason); reconnecting"))
    }

    func service(now: Double, polled set: PollSet, _ body: (BusReading) -> Void) {
        for problem in pendingProblems { body(problem) }
        pendingProblems.removeAll()
        guard fd >= 0 else { return }
        if connecting {
            let error = POSIX.socketError(fd)
            guard error == 0 else { return lost(now, "cannot connect: \(POSIX.message(error))", body) }
            var probe = PollSet(capacity: 1)
            probe.add(fd, read: false, write: true)
            guard probe.anyReady() else { return }
            connected()
        }
        flush(now, body)
        guard fd >= 0 else { return }
        var total = 0
        while total < 65_536 {
            switch buffer.withUnsafeMutableBytes({ POSIX.receive(fd, into: $0) }) {
            case .bytes(let got):
                total += got
                for byte in buffer[0..<got] {
                    if byte == 10 {
                        take(body)
                    } else if line.count < 128 {
                        line.append(byte)
                    }
                }
                if !stream { take(body) }
            case .end:
                if stream { return lost(now, "connection closed", body) }
                return
            case .wouldBlock:
                return
            case .failed(let code):
                return lost(now, POSIX.message(code), body)
            }
        }
    }

    /// The line gathered: a frame received, passed on; one the gateway sent for us, passed over.
    private func take(_ body: (BusReading) -> Void) {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return }
        let words = line.split(separator: 32)
        if words.count > 1 && words[1] == [UInt8(ascii: "T")][...] { return }
        guard let parsed = N2KLogLine.parse(line), case .frame(let frame, _) = parsed else {
            unreadable += 1
            return
        }
        body(.frame(frame))
    }

    func send(_ frame: CANFrame, now: Double) -> Bool {
        guard stream, fd >= 0, !connecting, outgoing.count < 16_384 else { return false }
        let digits = Array("0123456789ABCDEF".utf8)
        func hex(_ value: UInt64, _ count: Int) {
            for shift in stride(from: (count - 1) * 4, through: 0, by: -4) {
                outgoing.append(digits[Int((value >> UInt64(shift)) & 0xF)])
            }
        }
        hex(UInt64(frame.id), 8)
        for byte in frame.bytes {
            outgoing.append(32)
            hex(UInt64(byte), 2)
        }
        outgoing += [13, 10]
        return true
    }

    private func flush(_ now: Double, _ body: (BusReading) -> Void) {
        guard !outgoing.isEmpty else { return }
        switch outgoing.withUnsafeBytes({ POSIX.send(fd, $0) }) {
        case .bytes(let sent): outgoing.removeFirst(sent)
        case .wouldBlock, .end: break
        case .failed(let code): lost(now, POSIX.message(code), body)
        }
    }

    func close() {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
    }
}
