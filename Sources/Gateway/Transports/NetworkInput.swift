import CPosix
import Marine
import NMEA
import Platform

/// A network input: a TCP connection to a server (a multiplexer, a plotter's NMEA port), reconnected with backoff
/// when it fails or closes; or a UDP port listened on. Bytes go through the input's framer.
final class NetworkInput: InputTransport {
    enum Kind {
        case tcpClient(host: String, port: Int)
        case udpListener(host: String, port: Int)
    }

    struct Statistics {
        var connects = 0
        var disconnects = 0
        var bytes = 0
    }

    let name: String
    let kind: Kind
    private(set) var framer: SentenceFramer
    private(set) var statistics = Statistics()
    private var fd: Int32 = -1
    private var connecting = false
    private var backoff = Backoff()
    private let log: Log
    private var slot = PollSlot()

    init(name: String, kind: Kind, framing: FramerConfiguration, log: Log) {
        self.name = name
        self.kind = kind
        framer = SentenceFramer(configuration: framing)
        self.log = log
    }

    deinit { close() }

    var isConnected: Bool { fd >= 0 && !connecting }

    /// Opens the socket when it is time to (at start, and after a failure, with backoff up to 1 s).
    func maintain(now: Double) {
        guard fd < 0, backoff.isDue(now) else { return }
        let (host, port, socketKind): (String, Int, POSIX.SocketKind) =
            switch kind {
            case .tcpClient(let host, let port): (host, port, .stream)
            case .udpListener(let host, let port): (host, port, .datagram)
            }
        let url = (socketKind == .stream ? Endpoint.tcp(host: host, port: port) : .udp(host: host, port: port))
            .description
        guard let address = POSIX.SocketAddress(host: host, port: port) else {
            log.error(
                "input.bad-address", "input \(name): \(host) is not a numeric IPv4 or IPv6 address",
                [("input", name), ("url", url)])
            backoff.failed(at: now)
            return
        }
        do {
            fd = try POSIX.socket(socketKind, for: address, naming: url)
            switch socketKind {
            case .stream:
                if try POSIX.connect(fd, to: address, naming: url) { connected(now) } else { connecting = true }
            case .datagram:
                try POSIX.bind(fd, to: address, listen: false, naming: url)
                statistics.connects += 1
            }
        } catch {
            // A refused connection is retried quietly (the server may not be up yet); anything else is said.
            if error.code != ECONNREFUSED {
                log.warning(
                    "input.open-failed", "input \(name): \(error)",
                    [("input", name), ("url", url), ("errno", "\(error.code)")])
            }
            if fd >= 0 { POSIX.close(fd) }
            fd = -1
            backoff.failed(at: now)
        }
    }

    private func connected(_ now: Double) {
        connecting = false
        backoff.succeeded()
        statistics.connects += 1
        if case .tcpClient(let host, let port) = kind {
            log.notice(
                "input.connected", "input \(name): connected to tcp://\(host):\(port)",
                [("input", name), ("connects", "\(statistics.connects)")])
        }
    }

    private func lost(_ now: Double, _ reason: String, _ body: (InputEvent) -> Void) {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
        connecting = false
        statistics.disconnects += 1
        // A sentence cut by the disconnect is judged (and rejected, counted) rather than joined to the next connection.
        framer.finish { body(InputEvent($0)) }
        log.warning("input.lost", "input \(name): \(reason); reconnecting", [("input", name)])
        backoff.failed(at: now)
    }

    func nextDue(now: Double) -> Double? { fd < 0 ? backoff.retryAt : nil }

    func prepare(now: Double, into set: inout PollSet) {
        maintain(now: now)
        guard fd >= 0 else { return slot.clear() }
        slot.register(fd, read: !connecting, write: connecting, into: &set)
    }

    var counts: String {
        ", \(framer.statistics.rejects.total) rejected, \(max(0, statistics.connects - 1)) reconnects"
    }

    func close() {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
    }

    /// Reads what has arrived and hands every framed sentence on.
    func service(now: Double, polled set: PollSet, _ body: (InputEvent) -> Void) {
        guard fd >= 0 else { return }
        if connecting {
            let error = POSIX.socketError(fd)
            if error == 0 {
                var probe = PollSet(capacity: 1)
                probe.add(fd, read: false, write: true)
                guard probe.anyReady() else { return }
                connected(now)
            } else {
                return lost(now, "cannot connect: \(POSIX.message(error))", body)
            }
        }
        // At most `readLimit` bytes a turn: a source that sends without pause must not hold the loop.
        var total = 0
        while total < Self.readLimit {
            switch buffer.withUnsafeMutableBytes({ POSIX.receive(fd, into: $0) }) {
            case .bytes(let got):
                total += got
                statistics.bytes += got
                buffer.withUnsafeBufferPointer {
                    framer.feed(UnsafeBufferPointer(rebasing: $0[0..<got])) { body(InputEvent($0)) }
                }
                if case .udpListener = kind { framer.finish { body(InputEvent($0)) } }  // a datagram ends its sentences
            case .end:
                if case .tcpClient = kind { return lost(now, "connection closed", body) }
                return
            case .wouldBlock:
                return
            case .failed(let code):
                return lost(now, POSIX.message(code), body)
            }
        }
    }

    /// Bytes read from the network in one turn of the loop, at most.
    static let readLimit = 64 * 1024
    private var buffer = [UInt8](repeating: 0, count: 8192)
}
