import Engine
import Fleet
import Platform
import Router
import SignalK

/// The fleet uplink inside `telltale run`: the boat's values to a shore MQTT broker (Mosquitto, EMQX, VerneMQ,
/// HiveMQ: MQTT 3.1.1), through libmosquitto on the gateway's own poll loop.
///
/// Topics under `telltale/<boat>/`: one retained topic per value, named by its Signal K path
/// (`navigation/position`: `{"value": ..., "timestamp": "<the sample's own time>", "$source": ...}`); `history`, every
/// sample in numbered batches (``UplinkBatch``), through the queue on disk (``UplinkQueue``) so none is lost while
/// the link is down, sent again in order at a bounded rate when it returns while the live values go on beside
/// them; `alarms`, the active alarms, retained; `online`, `true` once connected and `false` as the last will when the
/// boat goes without a word. With `commands`, signed commands from shore on `commands` (``RemoteCommand``), their
/// outcome on `commands/result`. Everything at QoS 1.
///
/// Every decision is the ``UplinkSession``'s: this service tells it what the client and the queue said, with the
/// time, and carries out its actions with them. It keeps no state of the link of its own.
final class UplinkService: Service {
    let name = "uplink"
    let configuration: UplinkConfiguration
    private let log: Log
    /// The wall clock a command's freshness is judged by: the shore signs with its own, and the boat's, once the link
    /// is up, is kept by NTP (the engine's GPS time would be a recording's in a replay).
    private let wallClock: () -> Double
    private(set) var session: UplinkSession
    let queue: UplinkQueue
    private var client: MQTTClient?
    private var nextHousekeeping = 0.0
    /// Commands from shore the session let through, for the runtime (emitted at the end of the turn).
    private var commands: [EngineCommand] = []
    /// Counts for the log's summary and the figures.
    private(set) var published = 0
    private(set) var bytesOut = 0
    private var droppedSaid = 0

    init(
        configuration: UplinkConfiguration, stateFolder: String, log: Log,
        wallClock: @escaping () -> Double = POSIX.unixTime
    ) {
        self.configuration = configuration
        self.log = log
        self.wallClock = wallClock
        session = UplinkSession(settings: UplinkSession.Settings(configuration))
        queue = UplinkQueue(folder: stateFolder + "/uplink", limit: configuration.queueBytes, log: log)
    }

    var connected: Bool { session.connected }
    var root: String { configuration.root }

    func start(_ turn: inout Turn) {
        let waiting = queue.waiting
        log.notice(
            "uplink.start",
            "uplink: to \(configuration.tls ? "mqtts" : "mqtt")://\(configuration.host):\(configuration.port) as "
                + "\(configuration.boat)" + (waiting > 0 ? ", \(waiting) batches waiting from before" : ""),
            [("device", "uplink")])
        handle(.queue(acked: queue.acked, next: queue.next), at: turn.now)
        handle(.start, at: turn.now)
    }

    func stop(deadline: Double) {
        defer {
            log.notice(
                "uplink.summary",
                "uplink: \(published) messages published (\(bytesOut / 1024) KB), \(queue.waiting) batches left in the "
                    + "queue, \(queue.written / 1024) KB written to it, \(queue.thinnedTotal) samples thinned, "
                    + "\(queue.droppedBatches) batches given up, \(session.refusedCommands) commands refused",
                [("device", "uplink")])
        }
        guard let client, session.connected else { return }
        // Said before going: the last will is for a boat that goes without a word.
        _ = client.publish(
            topic: root + "goodbye", payload: Array(SignalKTime.text(unixTime: POSIX.unixTime()).utf8), qos: 1,
            retain: true)
        _ = client.publish(topic: root + "online", payload: Array("false".utf8), qos: 1, retain: true)
        _ = client.write()
        client.disconnect()
        _ = client.write()
        queue.acknowledge(through: queue.acked, at: deadline, force: true)
    }

    // MARK: The poll loop

    func pollDescriptors(now: Double, into set: inout PollSet) {
        guard let client else { return }
        let socket = client.socket
        guard socket >= 0 else { return }
        set.add(socket, write: client.wantsWrite)
    }

    func nextDue(now: Double) -> Double? { min(nextHousekeeping, now + 0.25) }

    func service(_ turn: inout Turn) {
        let now = turn.now
        var code: Int32 = 0
        if let client {
            let socket = client.socket
            let ready = turn.polled.readiness(of: socket)
            if socket >= 0 && ready.canRead { code = client.read() }
            if code == 0 && ready.contains(.writable) { code = client.write() }
        }
        if now >= nextHousekeeping {
            nextHousekeeping = now + 1
            if code == 0, let client { code = client.housekeep() }
            handle(.housekeeping(socketOpen: (client?.socket ?? -1) >= 0), at: now)
        }
        if let client {
            for event in client.takeEvents() {
                switch event {
                case .connected(let result): handle(result == 0 ? .connected : .refused(result), at: now)
                case .disconnected(let result): handle(.dropped(result, client.lib.text(result)), at: now)
                case .acknowledged(let id): handle(.acknowledged(id), at: now)
                case .message(let topic, let payload):
                    handle(.message(topic: topic, payload: payload, wallClock: wallClock()), at: now)
                }
            }
            // An attempt whose socket went without a word ended too (after the events, so one said has its own reason).
            if client.socket < 0 { handle(.socketClosed, at: now) }
            if client.droppedIncoming > droppedSaid {
                session.droppedMessages(client.droppedIncoming - droppedSaid)
                droppedSaid = client.droppedIncoming
                log.warning(
                    "uplink.command.too-long",
                    "uplink: a message from the broker over \(client.maximumIncoming) bytes dropped unread "
                        + "(\(droppedSaid) in all)", [("device", "uplink")])
            }
            // A link lost under a read or a write, said as the broker's own goodbye would be.
            if code != 0 { handle(.dropped(code, client.lib.text(code)), at: now) }
        }
        handle(.turnEnded, at: now)
        // Never a write without a socket: libmosquitto answers one with a goodbye (and so on every turn of the loop
        // while a packet of a failed attempt waits in its queue).
        if let client, client.socket >= 0 && client.wantsWrite { _ = client.write() }
        for command in commands { turn.emit(.shoreCommand(command)) }
        commands.removeAll()
    }

    /// After the engine's report: the samples due from the boat's model, live and into the queue.
    func report(_ model: SignalKModel, _ report: EngineReport, at now: Double) {
        handle(.report(model, time: report.time, unixTime: report.unixTime), at: now)
    }

    /// The outcome of a command from shore, carried out by the runtime: logged and published.
    func commandDone(_ outcome: CommandOutcome, at now: Double) { handle(.commandDone(outcome), at: now) }

    // MARK: The session's actions

    private func handle(_ event: UplinkSession.Event, at now: Double) {
        for action in session.handle(event, at: now) { perform(action, at: now) }
    }

    private func perform(_ action: UplinkSession.Action, at now: Double) {
        switch action {
        case .connect:
            client = nil
            do throws(MQTTClient.Failure) {
                let client = try makeClient()
                self.client = client
                begun(
                    client.connect(
                        host: configuration.host, port: configuration.port, keepAlive: configuration.keepAlive), at: now
                )
            } catch {
                log.error("uplink.library", "uplink: \(error); nothing is sent ashore", [("device", "uplink")])
                handle(.attemptFailed("\(error)"), at: now)
            }
        case .reconnect:
            guard let client else { return handle(.attemptFailed("no client"), at: now) }
            begun(client.reconnect(), at: now)
        case .publish(let topic, let payload, let retain):
            // Online again: the goodbye of the last clean stop taken back (the shore's watch tells a boat switched off
            // from one that vanished by it).
            if topic == root + "online" && payload == "true" { publish(root + "goodbye", "", retain: true) }
            publish(topic, payload, retain: retain)
        case .subscribe(let topic):
            _ = client?.subscribe(topic: topic, qos: 1)
        case .sendBacklog(let after, let count):
            for batch in queue.batches(after: after, count: count) {
                guard let id = publish(root + "history", batch.json, retain: false) else { return }
                handle(.published(sequence: batch.sequence, messageID: id), at: now)
            }
        case .acknowledge(let through):
            queue.acknowledge(through: through, at: now)
        case .append(let batch):
            do throws(POSIX.Failure) { try queue.append(batch) } catch {
                log.error("uplink.queue", "uplink: the queue on disk: \(error)", [("device", "uplink")])
            }
            handle(.queue(acked: queue.acked, next: queue.next), at: now)
        case .command(let command):
            commands.append(command)
        case .say(let notice):
            let event = LogEvent(Self.level(notice.level), notice.id, notice.text, [("device", "uplink")])
            log(event)
        }
    }

    private func begun(_ code: Int32, at now: Double) {
        if code == 0 {
            handle(.attemptBegun, at: now)
        } else {
            handle(.attemptFailed(client?.lib.text(code) ?? "error \(code)"), at: now)
        }
    }

    private func makeClient() throws(MQTTClient.Failure) -> MQTTClient {
        let client = try MQTTClient(id: "telltale-" + configuration.boat, cleanSession: false)
        client.will(topic: root + "online", payload: Array("false".utf8))
        if let username = configuration.username {
            client.credentials(username: username, password: configuration.password)
        }
        if configuration.tls, let ca = configuration.ca {
            let code = client.tls(ca: ca, certificate: configuration.certificate, key: configuration.key)
            if code != 0 { log.error("uplink.tls", "uplink: TLS: \(client.lib.text(code))", [("device", "uplink")]) }
        }
        return client
    }

    @discardableResult
    private func publish(_ topic: String, _ text: String, retain: Bool) -> Int32? {
        guard let client else { return nil }
        switch client.publish(topic: topic, payload: Array(text.utf8), qos: 1, retain: retain) {
        case .success(let id):
            published += 1
            bytesOut += text.utf8.count + topic.utf8.count
            return id
        case .failure:
            return nil
        }
    }

    static func level(_ level: UplinkSession.Notice.Level) -> LogEvent.Level {
        switch level {
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}
