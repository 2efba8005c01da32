import CPosix
import Fleet
import Marine
import Platform
import SignalK

/// `telltale fleet`: the shore side. One loop: the broker's socket (libmosquitto, as the uplink drives it) and the
/// panel's server (the same sockets as a boat's, a Signal K server with no boat of its own), the fleet's JSON made
/// once a second for the panel's Fleet layout.
public enum FleetCommand {
    public static func run(_ options: FleetOptions, log sink: @escaping (LogEvent) -> Void) throws(CommandError) {
        var limiter = LogLimiter()
        let log = Log { event in if let admitted = limiter.admit(event, at: POSIX.monotonic()) { sink(admitted) } }
        guard let broker = UplinkConfiguration.broker(options.broker) else {
            throw CommandError("fleet: --broker mqtt://host[:port]", status: 64)
        }
        guard case .tcp(let host, let port)? = try? Endpoint.parse("tcp://" + options.listen) else {
            throw CommandError("fleet: --listen must be host:port, such as 0.0.0.0:3000", status: 64)
        }
        var web = WebConfiguration()
        web.host = host
        web.port = port
        web.name = "fleet"
        var configuration = SignalKServer.Configuration()
        configuration.serverVersion = TelltaleVersion.string
        configuration.putRule = NetworkRule(networks: [])
        configuration.files = PanelFolder.files(in: PanelFolder.find(configured: nil), log: log)
        for (path, file) in WebService.leafletFiles(log: log) { configuration.files[path] = file }
        let server: WebServer
        do {
            server = try WebServer(settings: web, server: SignalKServer(configuration: configuration), log: log)
        } catch {
            throw CommandError("fleet: \(error)", status: 69)
        }
        let client: MQTTClient
        // With --session, the broker keeps the subscription and what comes for it while the fleet is stopped.
        let id = options.session.map { "telltale-fleet-" + $0 } ?? "telltale-fleet-\(getpid())"
        do { client = try MQTTClient(id: id, cleanSession: options.session == nil) } catch {
            throw CommandError("fleet: \(error)", status: 69)
        }
        // A history batch is a few kilobytes; a megabyte is a hostile one, dropped and counted.
        client.maximumIncoming = 1 << 20
        if let username = options.username { client.credentials(username: username, password: options.password) }
        if broker.tls, let ca = options.ca {
            let code = client.tls(ca: ca, certificate: nil, key: nil)
            if code != 0 { throw CommandError("fleet: TLS: \(client.lib.text(code))", status: 69) }
        }
        log.notice(
            "fleet.start",
            "fleet: boats from \(options.broker), the panel on http://\(Endpoint.bracketed(host)):\(server.port)/",
            [("device", "fleet")])
        StopSignal.install()
        var fleet = FleetModel()
        var connected = false
        var backoff = Backoff(first: 1, limit: 30)
        var connecting = false
        let model = SignalKModel(urn: "urn:mrn:signalk:uuid:00000000-0000-4000-8000-000000000000", name: "fleet")
        let start = POSIX.monotonic()
        var nextSecond = start
        var reads = 0
        var readAt = -Double.infinity
        var nextIdle = start
        var set = PollSet()
        var budget = TurnBudget.always
        while !StopSignal.isRaised {
            let now = POSIX.monotonic()
            if let duration = options.duration, now - start >= duration { break }
            if !connected && !connecting && backoff.isDue(now) {
                let code = client.connect(host: broker.host, port: broker.port, keepAlive: 10)
                connecting = code == 0
                if code != 0 && backoff.failed(at: now) {
                    log.warning(
                        "fleet.broker", "fleet: cannot reach the broker (\(client.lib.text(code)))",
                        [("device", "fleet")])
                }
            }
            set.removeAll()
            server.pollDescriptors(into: &set)
            let socket = client.socket
            if socket >= 0 { set.add(socket, write: client.wantsWrite) }
            set.wait(seconds: 0.25)
            let after = POSIX.monotonic()
            let unix = POSIX.unixTime()
            var code: Int32 = 0
            let ready = set.readiness(of: socket)
            if socket >= 0 && ready.canRead { code = client.read() }
            if code == 0 && ready.contains(.writable) { code = client.write() }
            if after >= nextSecond {
                nextSecond = after + 1
                if code == 0 && socket >= 0 { code = client.housekeep() }
                // The fleet's JSON every second while a panel reads it, every ten while none does.
                if server.fleetReads != reads {
                    reads = server.fleetReads
                    readAt = after
                }
                if after - readAt < 10 || after >= nextIdle {
                    server.setFleet(fleet.json(at: unix))
                    nextIdle = after + 10
                }
            }
            for event in client.takeEvents() {
                switch event {
                case .connected(let result):
                    connecting = false
                    guard result == 0 else {
                        backoff.failed(at: after)
                        log.error(
                            "fleet.refused", "fleet: the broker refused the connection (\(result))",
                            [("device", "fleet")])
                        continue
                    }
                    connected = true
                    backoff.succeeded()
                    _ = client.subscribe(topic: "telltale/+/#", qos: 1)
                    log.notice("fleet.connected", "fleet: connected to the broker", [("device", "fleet")])
                case .disconnected:
                    connected = false
                    connecting = false
                    backoff.failed(at: after)
                case .message(let topic, let payload):
                    fleet.take(topic: topic, payload: payload, at: unix)
                case .acknowledged:
                    break
                }
            }
            if code != 0 && (connected || connecting) {
                connected = false
                connecting = false
                backoff.failed(at: after)
                log.warning("fleet.lost", "fleet: the link to the broker is down (\(code))", [("device", "fleet")])
            }
            server.service(model: model, now: after, unixTime: unix, budget: &budget)
            // No charts ashore: the list is empty, a tile is not there. Nothing else is the fleet's to answer.
            while let request = server.takeRequest() {
                guard case .chart(let kind) = request.kind else {
                    if case .keepAccess = request.kind { continue }
                    server.answer(
                        request.id, .message(status: 404, "not on a fleet's server"), model: model, now: after,
                        unixTime: unix)
                    continue
                }
                let listed = kind == .list
                server.answer(
                    request.id,
                    .file(
                        status: listed ? 200 : 404, contentType: "application/json",
                        body: Array((listed ? #"{"charts":[]}"# : #"{"message":"no charts ashore"}"#).utf8)),
                    model: model, now: after, unixTime: unix)
            }
        }
        client.disconnect()
        server.close()
    }
}
