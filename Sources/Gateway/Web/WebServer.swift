import CPosix
import Engine
import Marine
import Platform
import SignalK

/// The Signal K server's sockets: a listener and its clients, each with a bounded queue, read a bounded amount a turn
/// of the loop. What the bytes mean is ``SignalKServer``'s business; this is only the I/O.
///
/// A client whose queue passes `clientBuffer` (a stream client that never reads) is dropped; who is let in, and
/// what times out, the protocol decides (``SignalKServer/admission(of:)``, ``SignalKServer/housekeep(at:_:)``, run
/// once a second); a client told to close that does not take its last bytes within `lingerLimit` is dropped; a client
/// is read at most `readLimit` bytes a turn, so a client that floods cannot hold the loop. A request only the shell
/// can answer waits in ``takeRequest()`` for the runtime, and its answer comes back through ``answer(_:_:model:now:unixTime:)``.
package final class WebServer {
    package struct Statistics: Sendable {
        var accepted = 0
        var refused = 0
        var dropped = 0
        var bytesIn = 0
        var bytesOut = 0
    }

    private struct Client {
        var fd: Int32
        var id: Int
        /// Its TLS session, when the server speaks HTTPS.
        var session: OpaquePointer?
        var queue = ClientQueue()
        var closeWhenSent = false
        /// When housekeeping first found the client closing (its linger is timed from there).
        var closingSince: Double?
    }

    package var port: Int { listener.port }
    private let listener: Listener
    private let settings: WebConfiguration
    private(set) var server: SignalKServer
    private(set) var statistics = Statistics()
    private var clients: [Client] = []
    private var nextID = 1
    private var scratch = [UInt8](repeating: 0, count: readLimit)
    /// Requests for the shell, in the order they came.
    private var requests: [SignalKServer.ShellRequest] = []
    private let log: Log

    package static let readLimit = 4 * 1024
    package static let acceptsPerTurn = 8
    /// Seconds of client work a turn of the loop, at most (past the first client).
    package static let turnBudget = 0.000_25
    /// Seconds a closing client has to take what is queued for it, from the housekeeping that first finds it closing.
    package static let lingerLimit = 5.0
    private var turn = 0
    private var lastHousekeeping = -Double.infinity

    /// HTTPS: every client through it (nil: plain HTTP).
    private let cipher: Cipher?

    package init(settings: WebConfiguration, server: SignalKServer, log: Log, cipher: Cipher? = nil)
        throws(POSIX.Failure)
    {
        self.settings = settings
        self.server = server
        self.log = log
        self.cipher = cipher
        listener = try Listener(
            host: settings.host, port: settings.port,
            url: "http://" + Endpoint.bracketed(settings.host) + ":\(settings.port)", sendBuffer: 64 * 1024)
    }

    deinit { close() }

    package var clientCount: Int { clients.count }
    package var hasPending: Bool { clients.contains { !$0.queue.isEmpty } }
    /// Stream work left by a `publish` or `tick` that yielded.
    package var hasUnfinishedRounds: Bool { server.hasUnfinishedRounds }

    package func pollDescriptors(into set: inout PollSet) {
        listener.register(into: &set)
        for client in clients {
            let wantsWrite = !client.queue.isEmpty
            set.add(client.fd, write: wantsWrite)
        }
    }

    /// Accepts, reads (bounded), hands bytes to the protocol, writes what is queued, drops the dead.
    /// `budget` says when the loop has more urgent work (an input's sentence waiting, the tick due): asked between one
    /// connection or client and the next, it ends the turn there.
    package func service(model: SignalKModel, now: Double, unixTime: Double, budget: inout TurnBudget) {
        let started = POSIX.monotonic()
        // Stream deltas a tick left unsent first: they are the oldest work.
        resume(model: model, budget: &budget)
        // A few connections a turn: a crowd connecting at once (200 clients that vanish) is taken over several turns
        // rather than in one that holds the tick.
        var accepted = 0
        while accepted < Self.acceptsPerTurn, accepted == 0 || !budget.isSpent(includingDue: true),
            let fd = listener.accept()
        {
            accepted += 1
            let peer = POSIX.peerAddress(fd)
            switch server.admission(of: peer) {
            case .refuse:
                statistics.refused += 1
                let busy = HTTPResponse.error(503, "too many clients")
                busy.withUnsafeBytes { _ = POSIX.send(fd, $0) }
                POSIX.close(fd)
                continue
            case .evict(let id):
                if let index = clients.firstIndex(where: { $0.id == id }) {
                    if let session = clients[index].session { cipher?.close(session) }
                    POSIX.close(clients[index].fd)
                    clients.remove(at: index)
                }
                server.evicted(id)
            case .accept:
                break
            }
            var session: OpaquePointer?
            if let cipher {
                guard let made = cipher.accept(fd) else {
                    POSIX.close(fd)
                    continue
                }
                session = made
            }
            let id = nextID
            nextID += 1
            clients.append(Client(fd: fd, id: id, session: session))
            statistics.accepted += 1
            server.opened(id, peer: peer, at: now)
        }
        if now - lastHousekeeping >= 1 {
            lastHousekeeping = now
            server.housekeep(at: now) { perform($0) }
            // A client told to close that does not read its last bytes (a phone asleep) gives its slot back anyway.
            for index in clients.indices.reversed() where clients[index].closeWhenSent {
                let since = clients[index].closingSince ?? now
                clients[index].closingSince = since
                if now - since > Self.lingerLimit { drop(index) }
            }
        }
        // A time budget a turn, starting with a different client each turn: a crowd of busy clients is served over
        // several turns, and a sentence arriving on an input meanwhile waits for at most one budget, not for all of
        // them (poll wakes at once for those left, their bytes still waiting).
        let ids = clients.map { $0.id }
        guard !ids.isEmpty else { return }
        let first = turn % ids.count
        turn &+= 1
        for step in 0..<ids.count {
            if step > 0 && (POSIX.monotonic() - started > Self.turnBudget || budget.isSpent(includingDue: true)) {
                break
            }
            guard let index = clients.firstIndex(where: { $0.id == ids[(first + step) % ids.count] }) else { continue }
            // Clients are removed only here (`drop`), so `index` holds through the read and the write.
            var alive = true
            if !clients[index].closeWhenSent { alive = read(index, model: model, now: now, unixTime: unixTime) }
            if alive { alive = write(index) }
            if alive && clients[index].closeWhenSent && clients[index].queue.isEmpty { alive = false }
            if !alive { drop(index) }
        }
    }

    /// Who may change things from now on.
    package func admit(_ rule: NetworkRule) { server.admit(rule) }

    /// The next request a client sent that only the shell can answer.
    package func takeRequest() -> SignalKServer.ShellRequest? { requests.isEmpty ? nil : requests.removeFirst() }

    /// The shell's answer to request `id`, to the client that asked; the requests it sent after go on.
    package func answer(
        _ id: Int, _ reply: SignalKServer.ShellReply, model: SignalKModel, now: Double, unixTime: Double
    ) {
        server.answer(id, reply, model: model, at: now, unixTime: unixTime) { perform($0) }
    }

    /// The forecasts on board, for the weather API and the chart's wind.
    package func setForecast(_ forecast: Forecast) { server.forecast = forecast }

    /// `telltale fleet`'s boats, for the panel's Fleet layout.
    package func setFleet(_ json: String) { server.fleet = json }
    /// The shore's door (nil: open), its sessions and each scope's view of the fleet.
    package func setGate(_ gate: SignalKServer.Gate?) { server.setGate(gate) }
    package func setViewers(_ viewers: [String: SignalKServer.Viewer]) { server.viewers = viewers }
    package func setFleetScoped(_ views: [String: String]) { server.fleetScoped = views }
    package var gate: SignalKServer.Gate? { server.configuration.gate }
    /// The autopilots read from the bus, for the Autopilot API.
    package func setAutopilots(_ statuses: [AutopilotStatus]) { server.autopilots = statuses }
    /// The history's clock, the one its samples are stamped on (nil while there is none).
    package func setHistoryClock(_ time: Double?) { server.historyClock = time }
    package var fleetReads: Int { server.fleetReads }

    /// New updates to the stream clients, one client after another until `budget` is spent (one at least); the
    /// clients not reached are served by `resume`.
    package func publish(_ updates: [SignalKModel.Update], model: SignalKModel, now: Double, budget: inout TurnBudget) {
        server.publish(updates, model: model, at: now, budget: 1) { perform($0) }
        finishRounds(model: model, budget: &budget, includingDue: false)
    }

    /// AIS stations' deltas to the streams that follow them.
    package func publishTraffic(_ deltas: [SignalKTraffic.Delta]) {
        server.publishTraffic(deltas) { perform($0) }
    }

    /// Held and periodic values that have come due; `budget` as for `publish`.
    package func tick(model: SignalKModel, now: Double, budget: inout TurnBudget) {
        server.tick(model: model, at: now, budget: 1) { perform($0) }
        finishRounds(model: model, budget: &budget, includingDue: false)
    }

    /// Goes on with stream work `publish` or `tick` left: one client at least, then until `budget` is spent (or an
    /// input or the tick comes due).
    package func resume(model: SignalKModel, budget: inout TurnBudget) {
        guard server.hasUnfinishedRounds else { return }
        server.resume(model: model, budget: 1) { perform($0) }
        finishRounds(model: model, budget: &budget, includingDue: true)
    }

    private func finishRounds(model: SignalKModel, budget: inout TurnBudget, includingDue: Bool) {
        while server.hasUnfinishedRounds && !budget.isSpent(includingDue: includingDue) {
            server.resume(model: model, budget: 1) { perform($0) }
        }
    }

    package func close() {
        for client in clients {
            if let session = client.session { cipher?.close(session) }
            POSIX.close(client.fd)
        }
        clients.removeAll()
    }

    private func read(_ index: Int, model: SignalKModel, now: Double, unixTime: Double) -> Bool {
        let id = clients[index].id
        let fd = clients[index].fd
        let session = clients[index].session
        let cipher = cipher
        let receive: (UnsafeMutableRawBufferPointer) -> POSIX.Transfer = { buffer in
            if let session, let cipher { return cipher.receive(session, buffer) }
            return POSIX.receive(fd, into: buffer)
        }
        return ClientQueue.read(into: &scratch, limit: Self.readLimit, from: receive) { bytes in
            statistics.bytesIn += bytes.count
            server.received(id, bytes, model: model, at: now, unixTime: unixTime) { perform($0) }
            // The protocol may have asked to close the client: stop reading it.
            return !clients[index].closeWhenSent
        }
    }

    private func write(_ index: Int) -> Bool {
        let fd = clients[index].fd
        let session = clients[index].session
        let cipher = cipher
        guard
            let written = clients[index].queue.write(
                compactingPast: 32 * 1024,
                { bytes in
                    if let session, let cipher { return cipher.send(session, bytes) }
                    return POSIX.send(fd, bytes)
                })
        else { return false }
        statistics.bytesOut += written
        return true
    }

    private func drop(_ index: Int) {
        server.closed(clients[index].id)
        if let session = clients[index].session { cipher?.close(session) }
        POSIX.close(clients[index].fd)
        clients.remove(at: index)
    }

    private func perform(_ action: SignalKServer.Action) {
        switch action {
        case .send(let id, let bytes):
            guard let index = clients.firstIndex(where: { $0.id == id }), !clients[index].closeWhenSent else { return }
            // One answer, however large (the full model), is always taken by a client with nothing queued; past
            // that, one that does not read is dropped rather than queued without end.
            if clients[index].queue.pending > 0 && clients[index].queue.pending + bytes.count > settings.clientBuffer {
                statistics.dropped += 1
                log.info("web.slow-client", "web: a client that does not read was dropped", [("port", "\(port)")])
                clients[index].queue.removeAll()
                clients[index].closeWhenSent = true
                // The protocol hears of it when the client is dropped (`drop`), not here: this runs inside the
                // protocol's own call.
                return
            }
            clients[index].queue.append(bytes)
        case .close(let id):
            guard let index = clients.firstIndex(where: { $0.id == id }) else { return }
            clients[index].closeWhenSent = true
        case .request(let request):
            requests.append(request)
        }
    }
}
