import Bridge
import CPosix
import Marine
import Platform

/// A pypilot autopilot over TCP (`[autopilot] pypilot = "192.168.4.20:23322"`), on the one poll loop (#41): connected
/// with backoff (0.5 s doubling to 10 s), its values watched (``PypilotLink``), orders written as lines. What it says is
/// read by the runtime each second (``Runtime/keepAutopilots(at:)``); it emits nothing.
final class PypilotService: Service {
    let name = "pypilot"
    let host: String
    let port: Int
    let log: Log
    private(set) var link = PypilotLink()
    private var fd: Int32 = -1
    private var connecting = false
    private var backoff = Backoff(first: 0.5, limit: 10)
    private var slot = PollSlot()
    private var line: [UInt8] = []
    private var outgoing: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init(host: String, port: Int, log: Log) {
        self.host = host
        self.port = port
        self.log = log
    }

    var description: String { "pypilot \(host):\(port)" }
    var isConnected: Bool { fd >= 0 && !connecting }

    func nextDue(now: Double) -> Double? { fd < 0 ? backoff.retryAt : nil }

    func pollDescriptors(now: Double, into set: inout PollSet) {
        if fd < 0 && backoff.isDue(now) { open(now) }
        guard fd >= 0 else { return slot.clear() }
        slot.register(fd, read: !connecting, write: connecting || !outgoing.isEmpty, into: &set)
    }

    private func open(_ now: Double) {
        guard let address = POSIX.SocketAddress(host: host, port: port) else {
            if backoff.failed(at: now) {
                log.error("pypilot.address", "pypilot: \(host) is not a numeric IP address")
            }
            return
        }
        do {
            fd = try POSIX.socket(.stream, for: address, naming: description)
            connecting = !(try POSIX.connect(fd, to: address, naming: description))
            if !connecting { connected() }
        } catch {
            if fd >= 0 { POSIX.close(fd) }
            fd = -1
            if backoff.failed(at: now) { log.warning("pypilot.open", "pypilot: \(error)") }
        }
    }

    private func connected() {
        connecting = false
        let again = backoff.succeeded()
        link.reset()
        outgoing = Array(PypilotLink.watch.utf8)
        let text = "pypilot: \(host):\(port) connected"
        if again { log.notice("pypilot.open", text) } else { log.info("pypilot.open", text) }
    }

    private func lost(_ now: Double, _ reason: String) {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
        connecting = false
        line.removeAll()
        outgoing.removeAll()
        link.reset()
        backoff.failed(at: now)
        log.warning("pypilot.down", "pypilot: \(host):\(port): \(reason); reconnecting")
    }

    func service(_ turn: inout Turn) {
        let now = turn.now
        guard fd >= 0 else { return }
        if connecting {
            let error = POSIX.socketError(fd)
            guard error == 0 else { return lost(now, "cannot connect: \(POSIX.message(error))") }
            var probe = PollSet(capacity: 1)
            probe.add(fd, read: false, write: true)
            guard probe.anyReady() else { return }
            connected()
        }
        flush(now)
        guard fd >= 0 else { return }
        var total = 0
        while total < 65_536 {
            switch buffer.withUnsafeMutableBytes({ POSIX.receive(fd, into: $0) }) {
            case .bytes(let got):
                total += got
                for byte in buffer[0..<got] {
                    if byte == 10 {
                        link.received(String(decoding: line, as: UTF8.self), at: now)
                        line.removeAll(keepingCapacity: true)
                    } else if line.count < PypilotLink.longestLine {
                        line.append(byte)
                    }
                }
            case .end: return lost(now, "connection closed")
            case .wouldBlock: return
            case .failed(let code): return lost(now, POSIX.message(code))
            }
        }
    }

    /// Lines for pypilot, written at once; false when it is not connected (nothing is kept to send later: a command
    /// is sent now or refused).
    func send(_ lines: [String], now: Double) -> Bool {
        guard isConnected, outgoing.count < 16_384 else { return false }
        for text in lines { outgoing += Array(text.utf8) }
        flush(now)
        return fd >= 0
    }

    private func flush(_ now: Double) {
        guard !outgoing.isEmpty, fd >= 0, !connecting else { return }
        switch outgoing.withUnsafeBytes({ POSIX.send(fd, $0) }) {
        case .bytes(let sent): outgoing.removeFirst(sent)
        case .wouldBlock, .end: break
        case .failed(let code): lost(now, POSIX.message(code))
        }
    }

    func stop(deadline: Double) {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
    }
}
