import CPosix
import Engine
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
final class UplinkService: Service {
    let name = "uplink"
    let configuration: UplinkConfiguration
    private let log: Log
    /// Carries a command from shore out (through the router) at a monotonic time.
    private let carryOut: (EngineCommand, Double) -> CommandOutcome
    /// The wall clock a command's freshness is judged by: the shore signs with its own, and the boat's, once the link
    /// is up, is kept by NTP (the engine's GPS time would be a recording's in a replay).
    private let wallClock: () -> Double
    /// The boat's values in Signal K form: the web server's model when there is one, else this service's own.
    private var feed: SignalKFeed?
    private var sampler: UplinkSampler
    let queue: UplinkQueue
    private var client: MQTTClient?
    private(set) var connected = false
    private var backoff = Backoff(first: 1, limit: 30)
    /// Samples gathered for the next batch, and when it began.
    private var gathering: [UplinkSample] = []
    private var gatheringSince: Double?
    /// Batches published on this connection up to this number; those waiting for their acknowledgement.
    private var sentThrough: UInt64 = 0
    private var inflight: [Int32: UInt64] = [:]
    private var acknowledgedAhead: Set<UInt64> = []
    private var nextHousekeeping = 0.0
    /// A connection is being attempted: begun, neither connected nor failed yet. Its failure counts once in the
    /// backoff, whichever way libmosquitto says it (the attempt's own error, a refusal that comes after it was begun,
    /// its keep-alive ending one that hangs); a goodbye heard with no connection and no attempt counts for nothing.
    private var attempting = false
    private var backlogBudget = 0.0
    private var lastBudgetAt: Double?
    private var alarmList = ""
    private var nonces: [String] = []
    /// Counts for the log's summary and the figures.
    private(set) var published = 0
    private(set) var bytesOut = 0
    private(set) var refusedCommands = 0
    private var droppedSaid = 0

    init(
        configuration: UplinkConfiguration, stateFolder: String, log: Log, ownFeed: SignalKFeed?,
        carryOut: @escaping (EngineCommand, Double) -> CommandOutcome,
        wallClock: @escaping () -> Double = POSIX.unixTime
    ) {
        self.configuration = configuration
        self.log = log
        self.carryOut = carryOut
        self.wallClock = wallClock
        feed = ownFeed
        sampler = UplinkSampler(groups: configuration.groups)
        queue = UplinkQueue(folder: stateFolder + "/uplink", limit: configuration.queueBytes, log: log)
        sentThrough = queue.acked
    }

    var root: String { configuration.root }

    /// An input's name, for the sources of its values (`voyage.GP`) when this service keeps its own model.
    func name(_ source: SourceID, _ name: String) { feed?.name(source, name) }

    func start(at now: Double) {
        let waiting = queue.waiting
        log.notice(
            "uplink.start",
            "uplink: to \(configuration.tls ? "mqtts" : "mqtt")://\(configuration.host):\(configuration.port) as "
                + "\(configuration.boat)" + (waiting > 0 ? ", \(waiting) batches waiting from before" : ""),
            [("device", "uplink")])
        connect(at: now)
    }

    func stop(deadline: Double) {
        defer {
            log.notice(
                "uplink.summary",
                "uplink: \(published) messages published (\(bytesOut / 1024) KB), \(queue.waiting) batches left in the "
                    + "queue, \(queue.written / 1024) KB written to it, \(queue.thinnedTotal) samples thinned, "
                    + "\(queue.droppedBatches) batches given up, \(refusedCommands) commands refused",
                [("device", "uplink")])
        }
        guard let client, connected else { return }
        // Said before going: the last will is for a boat that goes without a word.
        _ = client.publish(topic: root + "online", payload: Array("false".utf8), qos: 1, retain: true)
        _ = client.write()
        client.disconnect()
        _ = client.write()
        queue.acknowledge(through: queue.acked, at: deadline, force: true)
    }

    // MARK: The poll loop

    func pollDescriptors(now: Double, into fds: inout [pollfd]) {
        guard let client else { return }
        let socket = client.socket
        guard socket >= 0 else { return }
        fds.append(pollfd(fd: socket, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
    }

    func nextDue(now: Double) -> Double? { min(nextHousekeeping, now + 0.25) }

    func service(now: Double, polled fds: [pollfd]) {
        guard let client else {
            if backoff.isDue(now) { connect(at: now) }
            return
        }
        let socket = client.socket
        var code: Int32 = 0
        if socket >= 0, let entry = fds.first(where: { $0.fd == socket }) {
            if entry.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { code = client.read() }
            if code == 0, entry.revents & Int16(POLLOUT) != 0 { code = client.write() }
        }
        if now >= nextHousekeeping {
            nextHousekeeping = now + 1
            if code == 0 { code = client.housekeep() }
            if !connected && !attempting && client.socket < 0 && backoff.isDue(now) { reconnect(at: now) }
        }
        handle(client.takeEvents(), at: now)
        // An attempt whose socket went without a word ended too (after the events, so one said has its own reason).
        if attempting && client.socket < 0 { attemptFailed("the connection closed", at: now) }
        if client.droppedIncoming > droppedSaid {
            refusedCommands += client.droppedIncoming - droppedSaid
            droppedSaid = client.droppedIncoming
            log.warning(
                "uplink.command.too-long",
                "uplink: a message from the broker over \(client.maximumIncoming) bytes dropped unread "
                    + "(\(droppedSaid) in all)", [("device", "uplink")])
        }
        // A link lost under a read or a write, said as the broker's own goodbye would be.
        if code != 0 && connected { handle([.disconnected(code)], at: now) }
        if connected { sendBacklog(at: now) }
        // Never a write without a socket: libmosquitto answers one with a goodbye (and so on every turn of the loop
        // while a packet of a failed attempt waits in its queue).
        if client.socket >= 0 && client.wantsWrite { _ = client.write() }
    }

    private func connect(at now: Double) {
        do throws(MQTTClient.Failure) {
            let client = try MQTTClient(id: "telltale-" + configuration.boat, cleanSession: false)
            client.will(topic: root + "online", payload: Array("false".utf8))
            if let username = configuration.username {
                client.credentials(username: username, password: configuration.password)
            }
            if configuration.tls, let ca = configuration.ca {
                let code = client.tls(ca: ca, certificate: configuration.certificate, key: configuration.key)
                if code != 0 {
                    log.error("uplink.tls", "uplink: TLS: \(client.lib.text(code))", [("device", "uplink")])
                }
            }
            self.client = client
            reconnect(at: now, first: true)
        } catch {
            log.error("uplink.library", "uplink: \(error); nothing is sent ashore", [("device", "uplink")])
            backoff.failed(at: now)
        }
    }

    private func reconnect(at now: Double, first: Bool = false) {
        guard let client else { return }
        let code =
            first
            ? client.connect(host: configuration.host, port: configuration.port, keepAlive: configuration.keepAlive)
            : client.reconnect()
        attempting = code == 0
        if code != 0 { attemptFailed(client.lib.text(code), at: now) }
    }

    /// An attempt that failed: the next after the backoff; said once for a run of failures.
    private func attemptFailed(_ why: String, at now: Double) {
        attempting = false
        if backoff.failed(at: now) {
            log.warning(
                "uplink.unreachable", "uplink: cannot reach the broker (\(why)); queueing", [("device", "uplink")])
        }
    }

    private func handle(_ events: [MQTTClient.Event], at now: Double) {
        for event in events {
            switch event {
            case .connected(let code):
                guard code == 0 else {
                    attempting = false
                    backoff.failed(at: now)
                    log.error(
                        "uplink.refused", "uplink: the broker refused the connection (code \(code))",
                        [("device", "uplink")])
                    continue
                }
                connected = true
                attempting = false
                let recovered = backoff.succeeded()
                sentThrough = queue.acked
                inflight.removeAll()
                acknowledgedAhead.removeAll()
                _ = client?.publish(topic: root + "online", payload: Array("true".utf8), qos: 1, retain: true)
                if configuration.commands { _ = client?.subscribe(topic: root + "commands", qos: 1) }
                log.notice(
                    "uplink.connected",
                    "uplink: connected" + (recovered ? " again" : "")
                        + (queue.waiting > 0 ? "; \(queue.waiting) batches to send" : ""), [("device", "uplink")])
            case .disconnected(let code):
                if connected {
                    log.warning(
                        "uplink.lost", "uplink: the link to the broker is down (\(code)); queueing on disk",
                        [("device", "uplink")])
                    connected = false
                    inflight.removeAll()
                    backoff.failed(at: now)
                } else if attempting {
                    attemptFailed(client.map { $0.lib.text(code) } ?? "error \(code)", at: now)
                }
            case .acknowledged(let mid):
                guard let sequence = inflight.removeValue(forKey: mid) else { continue }
                acknowledgedAhead.insert(sequence)
                var through = queue.acked
                while acknowledgedAhead.remove(through + 1) != nil { through += 1 }
                queue.acknowledge(through: through, at: now)
            case .message(let topic, let payload):
                command(topic: topic, payload: payload, at: now)
            }
        }
    }

    // MARK: Samples in

    /// What the engine took or holds (the router's actions): into this service's own model when it keeps one; after a
    /// report, the samples due, from `model` (the web server's) or its own.
    func take(_ action: Router.Action, model: SignalKModel?, now: Double) {
        if feed != nil { feed!.take(action) }
        guard case .report(let report) = action else { return }
        if feed != nil { _ = feed!.takeUpdates() }
        guard let model = model ?? feed?.model else { return }
        let samples = sampler.samples(from: model, at: report.time, unixTime: report.unixTime)
        for sample in samples {
            gathering.append(sample)
            if connected {
                publish(root + sample.path.split(separator: ".").joined(separator: "/"), sample.json, retain: true)
            }
        }
        if samples.contains(where: { $0.isAlarm }) { publishAlarms(model) }
        if gatheringSince == nil { gatheringSince = now }
        if let since = gatheringSince, now - since >= configuration.batchSeconds, !gathering.isEmpty {
            let batch = UplinkBatch(
                boat: configuration.boat, sequence: queue.take(), late: !connected, samples: gathering)
            gathering.removeAll(keepingCapacity: true)
            gatheringSince = now
            do throws(POSIX.Failure) { try queue.append(batch) } catch {
                log.error("uplink.queue", "uplink: the queue on disk: \(error)", [("device", "uplink")])
            }
        }
    }

    private func publishAlarms(_ model: SignalKModel) {
        var json = JSONWriter()
        json.beginArray()
        for (path, list) in model.entries.sorted(by: { $0.key < $1.key }) where path.hasPrefix("notifications.") {
            guard let entry = list.first, case .notification(let state, _, let message) = entry.value, state != "normal"
            else { continue }
            json.beginObject()
            json.value("path", path)
            json.value("state", state)
            json.value("message", message)
            json.value("timestamp", entry.timestamp)
            json.endObject()
        }
        json.endArray()
        guard json.text != alarmList else { return }
        alarmList = json.text
        if connected { publish(root + "alarms", json.text, retain: true) }
    }

    @discardableResult
    private func publish(_ topic: String, _ text: String, retain: Bool) -> Int32? {
        guard let client else { return nil }
        switch client.publish(topic: topic, payload: Array(text.utf8), qos: 1, retain: retain) {
        case .success(let mid):
            published += 1
            bytesOut += text.utf8.count + topic.utf8.count
            return mid
        case .failure:
            return nil
        }
    }

    /// The batches not yet sent on this connection, in order, at most `backlogRate` a second and 32 unacknowledged.
    private func sendBacklog(at now: Double) {
        let elapsed = lastBudgetAt.map { now - $0 } ?? 0
        lastBudgetAt = now
        backlogBudget = min(configuration.backlogRate, backlogBudget + elapsed * configuration.backlogRate)
        guard sentThrough < queue.next - 1, backlogBudget >= 1, inflight.count < 32 else { return }
        let room = min(Int(backlogBudget), 32 - inflight.count)
        for batch in queue.batches(after: sentThrough, count: room) {
            guard let mid = publish(root + "history", batch.json, retain: false) else { return }
            inflight[mid] = batch.sequence
            sentThrough = batch.sequence
            backlogBudget -= 1
        }
    }

    // MARK: Commands from shore

    private func command(topic: String, payload: [UInt8], at now: Double) {
        guard configuration.commands, topic == root + "commands" else { return }
        guard let key = configuration.commandKey else {
            refusedCommands += 1
            log.warning(
                "uplink.command.no-key", "uplink: a command from shore refused: no command_key is set",
                [("device", "uplink")])
            return
        }
        switch RemoteCommand.verify(
            payload, boat: configuration.boat, key: Array(key.utf8), now: wallClock(), seen: &nonces)
        {
        case .success(let engineCommand):
            let outcome = carryOut(engineCommand, now)
            log.notice("uplink.command", "uplink: from shore: \(outcome.message)", [("device", "uplink")])
            publish(
                root + "commands/result",
                "{\"done\":\(outcome.isDone),\"message\":\(JSONWriter.quoted(outcome.message))}", retain: false)
        case .failure(let refusal):
            refusedCommands += 1
            log.warning(
                "uplink.command." + refusal.kind, "uplink: a command from shore refused: \(refusal)",
                [("device", "uplink")])
        }
    }
}
