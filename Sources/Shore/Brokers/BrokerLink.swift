import Fleet
import Gateway
import Platform

/// One broker and the client connected to it, on `telltale fleet`'s poll loop: it carries out what its
/// ``BrokerSession`` decides (connect, subscribe, take or drop messages, store them) and tells it what the client said,
/// with the time. It keeps no state of the link of its own.
final class BrokerLink {
    let host: String
    let port: Int
    private let maker: BrokerClientMaker
    private(set) var session: BrokerSession
    private var client: MQTTClient
    /// The client's count of messages dropped for their size, as last told to the session.
    private var dropped = 0

    /// The first client is made here, so that a missing library stops the start.
    init(host: String, port: Int, settings: BrokerSession.Settings, maker: BrokerClientMaker) throws(CommandError) {
        self.host = host
        self.port = port
        self.maker = maker
        session = BrokerSession(settings: settings)
        client = try maker.make()
    }

    /// The client's socket, for the poll set (reading only while the store keeps up).
    func poll(into set: inout PollSet, reading: Bool) {
        let socket = client.socket
        if socket >= 0 { set.add(socket, read: reading, write: client.wantsWrite) }
    }

    /// The start of a turn: an attempt when one is due.
    func begin(at now: Double, into intake: inout ShoreIntake) { handle(.turn, at: now, &intake) }

    /// After the poll: what is waiting on the socket (a few reads of it, so that one commit holds more batches), what
    /// the client has to write, once a second its housekeeping; then what it said.
    func service(polled set: PollSet, reading: Bool, second: Bool, at now: Double, into intake: inout ShoreIntake) {
        let socket = client.socket
        var code: Int32 = 0
        let ready = set.readiness(of: socket)
        if socket >= 0 && ready.canRead && reading {
            var reads = 0
            repeat {
                code = client.read()
                reads += 1
            } while code == 0 && reads < 8 && POSIX.readable(socket)
        }
        if code == 0 && ready.contains(.writable) { code = client.write() }
        if second && code == 0 && socket >= 0 { code = client.housekeep() }
        if client.droppedIncoming != dropped {
            handle(.oversized(client.droppedIncoming - dropped), at: now, &intake)
            dropped = client.droppedIncoming
        }
        for event in client.takeEvents() {
            switch event {
            case .connected(let result): handle(.connack(result), at: now, &intake)
            case .disconnected(let result): handle(.dropped(result, client.lib.text(result)), at: now, &intake)
            case .message(let topic, let payload): handle(.message(topic: topic, payload: payload), at: now, &intake)
            case .acknowledged: break
            }
        }
        if code != 0 { handle(.dropped(code, client.lib.text(code)), at: now, &intake) }
        if second { handle(.housekeeping, at: now, &intake) }
    }

    func disconnect() { client.disconnect() }

    private func handle(_ event: BrokerSession.Event, at now: Double, _ intake: inout ShoreIntake) {
        for action in session.handle(event, at: now) { perform(action, at: now, &intake) }
    }

    private func perform(_ action: BrokerSession.Action, at now: Double, _ intake: inout ShoreIntake) {
        switch action {
        case .connect(let fresh):
            if fresh {
                client.disconnect()
                do throws(CommandError) {
                    client = try maker.make()
                    dropped = 0
                } catch {
                    return handle(.attemptFailed(error.description), at: now, &intake)
                }
            }
            let code = client.connect(host: host, port: port, keepAlive: Int(session.settings.keepAlive))
            handle(code == 0 ? .attemptBegun : .attemptFailed(client.lib.text(code)), at: now, &intake)
        case .subscribe(let topic):
            _ = client.subscribe(topic: topic, qos: 1)
        case .accept(let accepting):
            client.accepting = accepting
        case .store(let topic, let payload, let show):
            intake.take(topic: topic, payload: payload, show: show)
        case .refuse(let why, let count):
            intake.ingest.refuse(why, count: count, on: session.settings.url)
        case .say(let notice):
            intake.log(LogEvent(Self.level(notice.level), notice.id, notice.text, [("device", "fleet")]))
        }
    }

    static func level(_ level: BrokerSession.Notice.Level) -> LogEvent.Level {
        switch level {
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}

/// How a broker's client is made: its id and session, its credentials and TLS, the size limit, and (a worker's) the
/// journal each message goes into before it is acknowledged.
struct BrokerClientMaker {
    var id: String
    var cleanSession: Bool
    var username: String?
    var password: String?
    var tls: Bool
    var ca: String?
    var journal: FleetJournal?

    func make() throws(CommandError) -> MQTTClient {
        let client: MQTTClient
        do { client = try MQTTClient(id: id, cleanSession: cleanSession) } catch {
            throw CommandError("fleet: \(error)", status: 69)
        }
        // A history batch is a few kilobytes; a megabyte is a hostile one (dropped and counted).
        client.maximumIncoming = 1 << 20
        if let journal { client.beforeAcknowledging = { journal.append(topic: $0, payload: $1) } }
        if let username { client.credentials(username: username, password: password) }
        if tls, let ca {
            let code = client.tls(ca: ca, certificate: nil, key: nil)
            if code != 0 { throw CommandError("fleet: TLS: \(client.lib.text(code))", status: 69) }
        }
        return client
    }
}
