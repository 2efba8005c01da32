import CPosix
import Platform
import SignalK

/// The Signal K server's sockets: a listener and its clients, each with a bounded queue, read a bounded amount a turn
/// of the loop. What the bytes mean is ``SignalKServer``'s business; this is only the I/O.
///
/// A client whose queue passes `clientBuffer` (a stream client that never reads) is dropped; clients beyond
/// `maximumClients` are answered 503 and closed; a client is read at most `readLimit` bytes a turn, so a client that
/// floods cannot hold the loop.
final class WebServer {
    struct Statistics: Sendable {
        var accepted = 0
        var refused = 0
        var dropped = 0
        var bytesIn = 0
        var bytesOut = 0
    }

    private struct Client {
        var fd: Int32
        var id: Int
        var queue: [UInt8] = []
        var sent = 0
        var closeWhenSent = false
    }

    let port: Int
    private let listener: Int32
    private let settings: WebConfiguration
    private(set) var server: SignalKServer
    private(set) var statistics = Statistics()
    private var clients: [Client] = []
    private var nextID = 1
    private var scratch = [UInt8](repeating: 0, count: readLimit)
    private let log: Log

    static let readLimit = 4 * 1024
    static let acceptsPerTurn = 8
    /// Seconds of client work a turn of the loop, at most (past the first client).
    static let turnBudget = 0.000_25
    private var turn = 0

    init(settings: WebConfiguration, server: SignalKServer, log: Log) throws(POSIX.Failure) {
        self.settings = settings
        self.server = server
        self.log = log
        let url = "http://" + Endpoint.bracketed(settings.host) + ":\(settings.port)"
        guard let address = POSIX.SocketAddress(host: settings.host, port: settings.port) else {
            throw POSIX.Failure(operation: "not a numeric IPv4 or IPv6 address:", path: settings.host, code: EINVAL)
        }
        let fd = try POSIX.socket(.stream, for: address, naming: url)
        do {
            try POSIX.bind(fd, to: address, listen: true, naming: url)
        } catch {
            POSIX.close(fd)
            throw error
        }
        port = POSIX.localPort(fd)
        listener = fd
    }

    deinit {
        for client in clients { POSIX.close(client.fd) }
        POSIX.close(listener)
    }

    var clientCount: Int { clients.count }
    var hasPending: Bool { clients.contains { $0.queue.count > $0.sent } }
    /// Stream work left by a `publish` or `tick` that yielded.
    var hasUnfinishedRounds: Bool { server.hasUnfinishedRounds }

    func pollDescriptors(into fds: inout [pollfd]) {
        fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
        for client in clients {
            let wantsWrite = client.queue.count > client.sent
            fds.append(pollfd(fd: client.fd, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
        }
    }

    /// Accepts, reads (bounded), hands bytes to the protocol, writes what is queued, drops the dead.
    /// `yield` says the loop has more urgent work (an input's sentence waiting, the tick due): asked between one
    /// connection or client and the next, it ends the turn there.
    func service(
        model: SignalKModel, now: Double, unixTime: Double, yield: () -> Bool,
        command: (SignalKServer.Command) -> Bool
    ) {
        let started = POSIX.monotonic()
        // Stream deltas a tick left unsent first: they are the oldest work.
        resume(model: model, yield: yield)
        // A few connections a turn: a crowd connecting at once (200 clients that vanish) is taken over several turns
        // rather than in one that holds the tick.
        var accepted = 0
        while accepted < Self.acceptsPerTurn, accepted == 0 || !yield(), let fd = POSIX.accept(listener) {
            accepted += 1
            guard clients.count < settings.maximumClients else {
                statistics.refused += 1
                let busy = HTTPResponse.error(503, "too many clients")
                busy.withUnsafeBytes { _ = POSIX.send(fd, $0) }
                POSIX.close(fd)
                continue
            }
            POSIX.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            POSIX.setOption(fd, SOL_SOCKET, SO_SNDBUF, Int32(64 * 1024))
            let id = nextID
            nextID += 1
            clients.append(Client(fd: fd, id: id))
            statistics.accepted += 1
            server.opened(id, peer: POSIX.peerAddress(fd), at: now)
        }
        // A time budget a turn, starting with a different client each turn: a crowd of busy clients is served over
        // several turns, and a sentence arriving on an input meanwhile waits for at most one budget, not for all of
        // them (poll wakes at once for those left, their bytes still waiting).
        let ids = clients.map { $0.id }
        guard !ids.isEmpty else { return }
        let first = turn % ids.count
        turn &+= 1
        for step in 0..<ids.count {
            if step > 0 && (POSIX.monotonic() - started > Self.turnBudget || yield()) { break }
            guard let index = clients.firstIndex(where: { $0.id == ids[(first + step) % ids.count] }) else { continue }
            var alive = true
            if !clients[index].closeWhenSent {
                alive = read(index, model: model, now: now, unixTime: unixTime, command: command)
            }
            if alive { alive = write(index) }
            if alive && clients[index].closeWhenSent && clients[index].queue.count == clients[index].sent {
                alive = false
            }
            if !alive { drop(index) }
        }
    }

    /// New updates to the stream clients; `yield` as for ``service(model:now:unixTime:yield:command:)``, the
    /// clients not reached served by `resume`.
    func publish(_ updates: [SignalKModel.Update], model: SignalKModel, now: Double, yield: () -> Bool) {
        server.publish(updates, model: model, at: now, yield: yield) { perform($0) }
    }

    /// Held and periodic values that have come due.
    func tick(model: SignalKModel, now: Double, yield: () -> Bool) {
        server.tick(model: model, at: now, yield: yield) { perform($0) }
    }

    /// Goes on with stream work `publish` or `tick` left when they yielded.
    func resume(model: SignalKModel, yield: () -> Bool) {
        guard server.hasUnfinishedRounds else { return }
        server.resume(model: model, yield: yield) { perform($0) }
    }

    func close() {
        for client in clients { POSIX.close(client.fd) }
        clients.removeAll()
    }

    private func read(
        _ index: Int, model: SignalKModel, now: Double, unixTime: Double, command: (SignalKServer.Command) -> Bool
    ) -> Bool {
        var total = 0
        let id = clients[index].id
        let fd = clients[index].fd
        while total < Self.readLimit {
            switch scratch.withUnsafeMutableBytes({ POSIX.receive(fd, into: $0) }) {
            case .bytes(let got):
                total += got
                statistics.bytesIn += got
                server.received(
                    id, scratch[0..<got], model: model, at: now, unixTime: unixTime, command: command
                ) { perform($0) }
                // The protocol may have dropped the client (or asked to): stop reading it.
                guard let current = clients.firstIndex(where: { $0.id == id }), !clients[current].closeWhenSent else {
                    return true
                }
            case .wouldBlock: return true
            case .end, .failed: return false
            }
        }
        return true
    }

    private func write(_ index: Int) -> Bool {
        let client = clients[index]
        guard client.queue.count > client.sent else { return true }
        let outcome = client.queue.withUnsafeBytes {
            POSIX.send(client.fd, UnsafeRawBufferPointer(rebasing: $0[client.sent...]))
        }
        switch outcome {
        case .bytes(let written):
            clients[index].sent += written
            statistics.bytesOut += written
            if clients[index].sent == clients[index].queue.count {
                clients[index].queue.removeAll(keepingCapacity: clients[index].queue.capacity <= 64 * 1024)
                clients[index].sent = 0
            } else if clients[index].sent > 32 * 1024 {
                clients[index].queue.removeFirst(clients[index].sent)
                clients[index].sent = 0
            }
            return true
        case .wouldBlock: return true
        case .end, .failed: return false
        }
    }

    private func drop(_ index: Int) {
        server.closed(clients[index].id)
        POSIX.close(clients[index].fd)
        clients.remove(at: index)
    }

    private func perform(_ action: SignalKServer.Action) {
        switch action {
        case .send(let id, let bytes):
            guard let index = clients.firstIndex(where: { $0.id == id }), !clients[index].closeWhenSent else { return }
            if clients[index].queue.count - clients[index].sent + bytes.count > settings.clientBuffer {
                // Not reading: dropped rather than queued without end.
                statistics.dropped += 1
                log.info("web.slow-client", "web: a client that does not read was dropped", [("port", "\(port)")])
                clients[index].queue.removeAll()
                clients[index].sent = 0
                clients[index].closeWhenSent = true
                // The protocol hears of it when the client is dropped (`drop`), not here: this runs inside the
                // protocol's own call.
                return
            }
            clients[index].queue.append(contentsOf: bytes)
        case .close(let id):
            guard let index = clients.firstIndex(where: { $0.id == id }) else { return }
            clients[index].closeWhenSent = true
        }
    }
}
