import CPosix
import Marine
import Platform

/// A network client on the one poll loop (#49): a TCP connection to a server (non-blocking connect, its answer probed
/// each turn: the socket's error, then whether it is writable), or a UDP port listened on; reconnected as its
/// ``TCPLink`` decides; what arrives handed on as bytes, or as lines of at most ``lineLimit`` bytes (longer ones
/// cut); what is to be written queued up to ``outgoingLimit`` and written as the socket takes it. A network input, a
/// Yacht Devices gateway and pypilot are each one of these and hold no socket of their own.
final class TCPClient {
    enum Event {
        /// Connected (or, for UDP, listening); `again` after failures or a loss.
        case connected(again: Bool)
        /// What arrived, in bytes mode; a datagram's end (`datagramEnd`) after each one read.
        case bytes(UnsafeBufferPointer<UInt8>)
        case datagramEnd
        /// A line, in lines mode (without its LF; a CR before it kept).
        case line(ArraySlice<UInt8>)
        /// An attempt failed: why, the errno (0 when none), whether it is the first of a run.
        case failed(String, errno: Int32, first: Bool)
        /// The open connection closed or failed.
        case lost(String)
    }

    private(set) var host: String
    private(set) var port: Int
    let stream: Bool
    /// How the endpoint is named in words (`tcp://host:port`).
    private(set) var url: String
    /// Lines mode with this longest line; nil: bytes mode.
    let lineLimit: Int?
    let outgoingLimit: Int
    private(set) var link: TCPLink
    private var fd: Int32 = -1
    private var slot = PollSlot()
    private var line: [UInt8] = []
    private var outgoing: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 8192)
    /// Events of the turn's preparation (a connection made or refused at once), handed on at its service.
    private var pending: [(String, Int32)] = []
    private var connectedNow: Bool?
    /// Bytes read in one turn, at most: a source that sends without pause must not hold the loop.
    static let readLimit = 64 * 1024

    init(
        host: String, port: Int, stream: Bool = true, backoff: Backoff, lineLimit: Int? = nil,
        outgoingLimit: Int = 16_384, connectLimit: Double = 10
    ) {
        self.host = host
        self.port = port
        self.stream = stream
        url = (stream ? "tcp://" : "udp://") + Endpoint.bracketed(host) + ":\(port)"
        self.lineLimit = lineLimit
        self.outgoingLimit = outgoingLimit
        link = TCPLink(backoff: backoff, connectLimit: connectLimit)
    }

    deinit { close() }

    var isOpen: Bool { fd >= 0 && link.state == .open }

    /// When an attempt is next due while closed.
    func nextDue(now: Double) -> Double? { fd < 0 ? link.retryAt : nil }

    /// Opens the socket when an attempt is due, and registers it: to read once open, to write while connecting (the
    /// answer) or while bytes wait.
    func prepare(now: Double, into set: inout PollSet) {
        if fd < 0 && link.isDue(now) { open(now) }
        guard fd >= 0 else { return slot.clear() }
        let connecting = link.state != .open
        slot.register(fd, read: !connecting, write: connecting || !outgoing.isEmpty, into: &set)
    }

    private func open(_ now: Double) {
        guard let address = POSIX.SocketAddress(host: host, port: port) else {
            pending.append(("\(host) is not a numeric IPv4 or IPv6 address", 0))
            return
        }
        do {
            fd = try POSIX.socket(stream ? .stream : .datagram, for: address, naming: url)
            if stream {
                if try POSIX.connect(fd, to: address, naming: url) {
                    connectedNow = link.connected(at: now)
                } else {
                    link.connecting(at: now)
                }
            } else {
                try POSIX.bind(fd, to: address, listen: false, naming: url)
                connectedNow = link.connected(at: now)
            }
        } catch {
            if fd >= 0 { POSIX.close(fd) }
            fd = -1
            pending.append(("\(error)", error.code))
        }
    }

    /// What happened since the last turn: the connect's answer, what arrived (at most ``readLimit`` bytes), what was
    /// written; a connection closed or failed.
    func service(now: Double, _ body: (Event) -> Void) {
        for (why, code) in pending { body(.failed(why, errno: code, first: link.failed(at: now))) }
        pending.removeAll()
        if let again = connectedNow {
            connectedNow = nil
            body(.connected(again: again))
        }
        guard fd >= 0 else { return }
        if case .connecting = link.state {
            guard probe(now, body) else { return }
        }
        flush(now, body)
        guard fd >= 0 else { return }
        var total = 0
        while total < Self.readLimit {
            switch buffer.withUnsafeMutableBytes({ POSIX.receive(fd, into: $0) }) {
            case .bytes(let got):
                total += got
                take(got, body)
            case .end:
                if stream { return lose(now, "connection closed", body) }
                return
            case .wouldBlock:
                return
            case .failed(let code):
                return lose(now, POSIX.message(code), body)
            }
        }
    }

    /// The non-blocking connect's answer: true once connected.
    private func probe(_ now: Double, _ body: (Event) -> Void) -> Bool {
        let error = POSIX.socketError(fd)
        guard error == 0 else {
            closeSocket()
            body(.failed("cannot connect: \(POSIX.message(error))", errno: error, first: link.failed(at: now)))
            return false
        }
        var probe = PollSet(capacity: 1)
        probe.add(fd, read: false, write: true)
        guard probe.anyReady() else {
            guard link.hasTimedOut(at: now) else { return false }
            closeSocket()
            let why = "cannot connect: no answer within \(Int(link.connectLimit)) s"
            body(.failed(why, errno: ETIMEDOUT, first: link.failed(at: now)))
            return false
        }
        body(.connected(again: link.connected(at: now)))
        return true
    }

    private func take(_ count: Int, _ body: (Event) -> Void) {
        guard let limit = lineLimit else {
            buffer.withUnsafeBufferPointer { body(.bytes(UnsafeBufferPointer(rebasing: $0[0..<count]))) }
            if !stream { body(.datagramEnd) }
            return
        }
        for byte in buffer[0..<count] {
            if byte == 10 {
                body(.line(line[...]))
                line.removeAll(keepingCapacity: true)
            } else if line.count < limit {
                line.append(byte)
            }
        }
        // A datagram ends its line.
        if !stream && !line.isEmpty {
            body(.line(line[...]))
            line.removeAll(keepingCapacity: true)
        }
    }

    /// Bytes for the peer, written as the socket takes them; false (nothing queued) when not connected or too much
    /// already waits.
    func send(_ bytes: [UInt8], now: Double) -> Bool {
        guard stream, isOpen, outgoing.count + bytes.count <= outgoingLimit else { return false }
        outgoing += bytes
        return true
    }

    /// What waits, written now (a command is sent in its own turn).
    func flush(_ now: Double, _ body: (Event) -> Void) {
        guard !outgoing.isEmpty, isOpen else { return }
        switch outgoing.withUnsafeBytes({ POSIX.send(fd, $0) }) {
        case .bytes(let sent): outgoing.removeFirst(sent)
        case .wouldBlock, .end: break
        case .failed(let code): lose(now, POSIX.message(code), body)
        }
    }

    private func lose(_ now: Double, _ reason: String, _ body: (Event) -> Void) {
        closeSocket()
        link.lost(at: now)
        body(.lost(reason))
    }

    private func closeSocket() {
        if fd >= 0 { POSIX.close(fd) }
        fd = -1
        slot.clear()
        line.removeAll()
        outgoing.removeAll()
    }

    /// Closed on purpose (stopping).
    func close() {
        closeSocket()
        link.close()
    }

    /// The peer is elsewhere now (found again by mDNS): closed, and tried there from a fresh backoff.
    func move(host: String, port: Int, backoff: Backoff) {
        close()
        self.host = host
        self.port = port
        url = (stream ? "tcp://" : "udp://") + Endpoint.bracketed(host) + ":\(port)"
        link.reset(backoff: backoff)
    }
}
