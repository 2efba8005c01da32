import CPosix
import Fleet
import Marine
import Platform
import SignalK

/// `telltale fleet`: the shore side. One loop: the brokers' sockets (libmosquitto, as the uplink drives it), the
/// store, and the panel's server (the same sockets as a boat's, a Signal K server with no boat of its own).
///
/// Three roles, the same program: `all` (the committee's laptop: one process takes from the brokers, keeps in the
/// store and serves the panel from what it took), `ingest` (a worker: takes its share of every broker's messages
/// through the shared subscription `$share/telltale/...` into the store; as many as the load needs), `web` (serves the
/// panel from the store alone, keeping nothing of its own that a restart would lose; as many as wanted).
public enum FleetCommand {
    /// One broker and the client connected to it.
    final class Link {
        let url: String
        let host: String
        let port: Int
        let tls: Bool
        let client: MQTTClient
        var connected = false
        var connecting = false
        var backoff = Backoff(first: 1, limit: 30)
        var dropped = 0
        /// The keeper's session: plain subscriptions, which mosquitto restores after a restart (it does not restore
        /// a kept session's shared ones: 2.0.11). Its messages are taken while it connects and for `catchUp`
        /// seconds after (what waited for it), then dropped unread.
        let keeper: Bool
        var catchUntil = Double.infinity

        init(url: String, host: String, port: Int, tls: Bool, client: MQTTClient, keeper: Bool = false) {
            self.keeper = keeper
            self.url = url
            self.host = host
            self.port = port
            self.tls = tls
            self.client = client
        }
    }

    /// Seconds a keeper's session takes messages after it connects: what the broker kept for it comes first.
    static let catchUp = 30.0

    /// The topics a role takes: a worker its share of what the store keeps; the laptop everything (its panel shows
    /// the live values too); the keeper's session what the store keeps, plainly.
    static func subscriptions(_ role: FleetOptions.Role, keeper: Bool = false) -> [String] {
        if keeper { return ["history", "online", "alarms"].map { "telltale/+/" + $0 } }
        switch role {
        case .ingest: return ["history", "online", "alarms"].map { "$share/telltale/telltale/+/" + $0 }
        case .all: return ["telltale/+/#"]
        case .web: return []
        }
    }

    public static func run(_ options: FleetOptions, log sink: @escaping (LogEvent) -> Void) throws(CommandError) {
        var limiter = LogLimiter()
        let log = Log { event in if let admitted = limiter.admit(event, at: POSIX.monotonic()) { sink(admitted) } }
        let store: FleetStore
        do { store = try FleetStore(options.store) } catch {
            throw CommandError("fleet: the store \(FleetStore.describe(options.store)): \(error)", status: 69)
        }
        let name = options.worker ?? options.session ?? "fleet-\(getpid())"
        // The race office's files, read once: a file that cannot be read stops the start; a line of the fleet file
        // that cannot be an entry is said and left out.
        var entries: [FleetEntry] = []
        if let path = options.entries {
            let bytes: [UInt8]
            do { bytes = try POSIX.readFile(path, limit: 16 << 20) } catch {
                throw CommandError("fleet: --entries \(path): \(error)", status: 66)
            }
            let (read, problems) = FleetEntries.parse(String(decoding: bytes, as: UTF8.self))
            for problem in problems.prefix(50) {
                log.warning("fleet.entries", "fleet: \(path): \(problem)", [("device", "fleet")])
            }
            guard !read.isEmpty else { throw CommandError("fleet: --entries \(path): no boat entered", status: 65) }
            entries = read
            log.info("fleet.entries", "fleet: \(entries.count) boats entered from \(path)", [("device", "fleet")])
        }
        var office: RaceOffice?
        if let path = options.races {
            do { office = RaceOffice(races: try RaceFile.read(path), entries: entries) } catch {
                throw CommandError("fleet: --races \(error)", status: 65)
            }
        } else if !entries.isEmpty {
            office = RaceOffice(races: [], entries: entries)
        }
        // The web side: every role but a worker's.
        var server: WebServer?
        if options.role != .ingest {
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
            do {
                server = try WebServer(settings: web, server: SignalKServer(configuration: configuration), log: log)
            } catch {
                throw CommandError("fleet: \(error)", status: 69)
            }
        }
        // The brokers: every role but the web side's.
        var links: [Link] = []
        var journal: FleetJournal?
        if options.role != .web {
            if options.role == .ingest {
                let path =
                    options.journal
                    ?? ((options.store.hasPrefix("postgres") ? "" : FleetCommand.folder(of: options.store))
                        + "telltale-worker-\(name).journal")
                do { journal = try FleetJournal(path: path) } catch {
                    throw CommandError("fleet: \(error)", status: 73)
                }
            }
            for url in options.brokers {
                guard let broker = UplinkConfiguration.broker(url) else {
                    throw CommandError("fleet: --broker mqtt://host[:port]", status: 64)
                }
                // A worker's session is kept by every broker: what comes while it restarts waits for it.
                let id: String
                let clean: Bool
                switch options.role {
                case .ingest:
                    id = "telltale-worker-" + name
                    clean = false
                default:
                    id = options.session.map { "telltale-fleet-" + $0 } ?? "telltale-fleet-\(getpid())"
                    clean = options.session == nil
                }
                // A client for this broker: a history batch is a few kilobytes, a megabyte a hostile one (dropped and
                // counted); every message into the journal before it is acknowledged.
                func client(_ id: String, clean: Bool) throws(CommandError) -> MQTTClient {
                    let client: MQTTClient
                    do { client = try MQTTClient(id: id, cleanSession: clean) } catch {
                        throw CommandError("fleet: \(error)", status: 69)
                    }
                    client.maximumIncoming = 1 << 20
                    client.journal = journal
                    if let username = options.username {
                        client.credentials(username: username, password: options.password)
                    }
                    if broker.tls, let ca = options.ca {
                        let code = client.tls(ca: ca, certificate: nil, key: nil)
                        if code != 0 { throw CommandError("fleet: TLS: \(client.lib.text(code))", status: 69) }
                    }
                    return client
                }
                links.append(
                    Link(
                        url: url, host: broker.host, port: broker.port, tls: broker.tls,
                        client: try client(id, clean: clean)))
                if options.keeper {
                    links.append(
                        Link(
                            url: url, host: broker.host, port: broker.port, tls: broker.tls,
                            client: try client("telltale-keeper", clean: false), keeper: true))
                }
            }
        }
        log.notice(
            "fleet.start",
            "fleet (\(options.role.rawValue)\(options.worker.map { " " + $0 } ?? "")): "
                + (links.isEmpty ? "" : "boats from \(options.brokers.joined(separator: ", ")), ")
                + "kept in \(FleetStore.describe(options.store))"
                + (server.map {
                    ", the panel on http://\(options.listen.isEmpty ? "" : options.listen)/ (port \($0.port))"
                }
                    ?? ""),
            [("device", "fleet")])
        StopSignal.install()
        // The web side reading the store follows more boats than one process following a broker.
        var fleet = FleetModel(boatLimit: options.role == .web ? 20_000 : FleetModel.maximumBoats)
        fleet.collectsPositions = office != nil
        var ingest = Ingest(store: store, worker: name, log: log)
        if let journal {
            let left = journal.leftOver()
            if !left.isEmpty {
                let now = POSIX.unixTime()
                for (topic, payload) in left { ingest.take(topic: topic, payload: payload, at: now) }
                if ingest.flush(at: now) { journal.empty() }
                log.notice(
                    "fleet.journal", "fleet: \(left.count) messages from the journal a stopped worker left, stored",
                    [("device", "fleet")])
            } else {
                journal.empty()
            }
        }
        let model = SignalKModel(urn: "urn:mrn:signalk:uuid:00000000-0000-4000-8000-000000000000", name: "fleet")
        let start = POSIX.monotonic()
        var nextSecond = start
        var reads = 0
        var readAt = -Double.infinity
        var nextIdle = start
        var reader = StoreReader()
        var set = PollSet()
        var budget = TurnBudget.always
        while !StopSignal.isRaised {
            let now = POSIX.monotonic()
            if let duration = options.duration, now - start >= duration { break }
            for link in links where !link.connected && !link.connecting && link.backoff.isDue(now) {
                // A keeper takes what waited for it from the moment it connects.
                if link.keeper {
                    link.client.accepting = true
                    link.catchUntil = .infinity
                }
                let code = link.client.connect(host: link.host, port: link.port, keepAlive: 10)
                link.connecting = code == 0
                if code != 0 && link.backoff.failed(at: now) {
                    log.warning(
                        "fleet.broker", "fleet: cannot reach the broker \(link.url) (\(link.client.lib.text(code)))",
                        [("device", "fleet")])
                }
            }
            set.removeAll()
            server?.pollDescriptors(into: &set)
            // A store that cannot keep up (or is down) stops the reading: the brokers keep what waits.
            let reading = ingest.pending.count < 20_000
            for link in links {
                let socket = link.client.socket
                if socket >= 0 { set.add(socket, read: reading, write: link.client.wantsWrite) }
            }
            set.wait(seconds: ingest.pending.isEmpty && !(office?.reading ?? false) ? 0.25 : 0.02)
            let after = POSIX.monotonic()
            let unix = POSIX.unixTime()
            let second = after >= nextSecond
            if second { nextSecond = after + 1 }
            for link in links {
                let socket = link.client.socket
                var code: Int32 = 0
                let ready = set.readiness(of: socket)
                if socket >= 0 && ready.canRead && reading {
                    // What is waiting on the socket, a few reads of it: one commit for more batches.
                    var reads = 0
                    repeat {
                        code = link.client.read()
                        reads += 1
                    } while code == 0 && reads < 8 && POSIX.readable(socket)
                }
                if code == 0 && ready.contains(.writable) { code = link.client.write() }
                if second && code == 0 && socket >= 0 { code = link.client.housekeep() }
                // Over a megabyte: dropped by the client before the journal, counted here.
                if link.client.droppedIncoming != link.dropped {
                    ingest.refuse("size", count: link.client.droppedIncoming - link.dropped, on: link.url)
                    link.dropped = link.client.droppedIncoming
                }
                for event in link.client.takeEvents() {
                    switch event {
                    case .connected(let result):
                        link.connecting = false
                        guard result == 0 else {
                            link.backoff.failed(at: after)
                            log.error(
                                "fleet.refused", "fleet: the broker \(link.url) refused the connection (\(result))",
                                [("device", "fleet")])
                            continue
                        }
                        link.connected = true
                        link.backoff.succeeded()
                        for topic in subscriptions(options.role, keeper: link.keeper) {
                            _ = link.client.subscribe(topic: topic, qos: 1)
                        }
                        if link.keeper { link.catchUntil = after + catchUp }
                        log.notice(
                            "fleet.connected", "fleet: connected to the broker \(link.url)", [("device", "fleet")])
                    case .disconnected:
                        link.connected = false
                        link.connecting = false
                        link.backoff.failed(at: after)
                    case .message(let topic, let payload):
                        if options.role == .all && !link.keeper { fleet.take(topic: topic, payload: payload, at: unix) }
                        ingest.take(topic: topic, payload: payload, at: unix)
                    case .acknowledged:
                        break
                    }
                }
                if link.keeper && link.connected && after > link.catchUntil { link.client.accepting = false }
                if code != 0 && (link.connected || link.connecting) {
                    link.connected = false
                    link.connecting = false
                    link.backoff.failed(at: after)
                    log.warning(
                        "fleet.lost", "fleet: the link to the broker \(link.url) is down (\(code))",
                        [("device", "fleet")])
                }
            }
            // Into the store every turn: the journal is emptied only once the store has it all.
            if !ingest.pending.isEmpty && ingest.flush(at: POSIX.unixTime()) { journal?.empty() }
            if second && !links.isEmpty { ingest.report(at: unix) }
            guard let server else { continue }
            if second {
                if options.role == .web { reader.read(store, into: &fleet, at: unix, log: log) }
                // The race office: what came this second into the races under way.
                if let office {
                    office.feed(fleet.takeFresh(), at: unix)
                    office.work(store: store, at: unix, log: log)
                }
                // The fleet's JSON every second while a panel reads it, every ten while none does.
                if server.fleetReads != reads {
                    reads = server.fleetReads
                    readAt = after
                }
                if after - readAt < 10 || after >= nextIdle {
                    // At race scale each boat's track is shorter on the live view (replay draws it whole).
                    let limit = max(20, min(300, 60_000 / max(1, fleet.boats.count)))
                    server.setFleet(fleet.json(at: unix, trackLimit: limit, entries: entries))
                    nextIdle = after + 10
                }
            } else if let office, office.reading {
                // A race being read from the store: a few more boats every turn, requests answered between.
                office.work(store: store, at: unix, log: log)
            }
            server.service(model: model, now: after, unixTime: unix, budget: &budget)
            while let request = server.takeRequest() {
                let reply: SignalKServer.ShellReply
                switch request.kind {
                case .keepAccess: continue
                case .fleet(let asked):
                    reply = FleetQueries.answer(
                        asked, store: store, office: office, at: unix, log: log)
                case .chart(let kind):
                    // No charts ashore: the list is empty, a tile is not there.
                    let listed = kind == .list
                    reply = .file(
                        status: listed ? 200 : 404, contentType: "application/json",
                        body: Array((listed ? #"{"charts":[]}"# : #"{"message":"no charts ashore"}"#).utf8))
                default: reply = .message(status: 404, "not on a fleet's server")
                }
                server.answer(request.id, reply, model: model, now: after, unixTime: unix)
            }
        }
        if !ingest.pending.isEmpty && ingest.flush(at: POSIX.unixTime()) { journal?.empty() }
        if !links.isEmpty { ingest.report(at: POSIX.unixTime()) }
        for link in links { link.client.disconnect() }
        server?.close()
    }

    /// The folder of a file's path, with its slash ("" for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// What a process took from its brokers on its way into the store, and its counters.
    struct Ingest {
        let store: FleetStore
        let worker: String
        let log: Log
        var pending: [FleetStore.Item] = []
        var messages = 0
        var batches = 0
        var duplicates = 0
        var refused = 0
        var refusedBy: [String: Int] = [:]
        /// The longest delay from a batch's last sample to its commit since the last report.
        var lag: Double?
        /// The one reported last (kept while no batch comes).
        var lagReported: Double?
        private var failures = 0
        private var retryAt = 0.0

        init(store: FleetStore, worker: String, log: Log) {
            self.store = store
            self.worker = worker
            self.log = log
        }

        mutating func take(topic: String, payload: [UInt8], at time: Double) {
            messages += 1
            switch FleetIngest.judge(topic: topic, payload: payload, at: time) {
            case .item(let item): pending.append(item)
            case .skipped: break
            case .refused(let why): refuse(why, count: 1, on: String(topic.prefix(80)))
            }
        }

        mutating func refuse(_ why: String, count: Int, on topic: String) {
            refused += count
            refusedBy[why, default: 0] += count
            log.warning(
                "fleet.input." + why, "fleet: a message refused (\(why)) on \(topic)", [("device", "fleet")])
        }

        /// Writes what is pending; true when the store has it all.
        mutating func flush(at time: Double) -> Bool {
            guard !pending.isEmpty else { return true }
            guard time >= retryAt else { return false }
            do {
                let written = try store.write(pending)
                let committed = POSIX.unixTime()
                for case .batch(let batch, _, _) in pending {
                    if let last = batch.samples.last.flatMap({ SignalKTime.unixTime($0.timestamp) }) {
                        lag = max(lag ?? 0, committed - last)
                    }
                }
                batches += written.batches
                duplicates += written.duplicates
                pending.removeAll(keepingCapacity: true)
                if failures > 0 {
                    log.notice("fleet.store.again", "fleet: the store takes writes again", [("device", "fleet")])
                }
                failures = 0
                return true
            } catch {
                failures += 1
                retryAt = time + min(30, Double(1 << min(failures - 1, 5)))
                log.warning("fleet.store", "fleet: the store did not take a write: \(error)", [("device", "fleet")])
                return false
            }
        }

        /// The counters into `fleet_workers`, once a second.
        mutating func report(at time: Double) {
            try? store.report(
                worker: worker, at: time, messages: messages, batches: batches, duplicates: duplicates,
                refused: refused, lag: lag ?? lagReported)
            if lag != nil { lagReported = lag }
            lag = nil
        }
    }

    /// The web side's reading of the store: the batches stored since it last looked, and a few seconds before while
    /// it is caught up (a slower worker may commit a batch stamped earlier than one already read; those seen are
    /// passed over by number, unread); the boats' links and alarms every five seconds.
    struct StoreReader {
        var cursor: Double?
        var caughtUp = false
        var nextBoats = 0.0
        /// Batches read lately (boat/number) and when they were stored, forgotten once out of the overlap.
        var seen: [String: Double] = [:]
        static let overlap = 5.0
        /// Batches a turn: half a second's parsing of 1 Hz batches (22 kB each), so that a web side catching up on an
        /// hour of a big fleet still answers within about a second (3,000 held requests for 3 s: Benchmarks/fleet.py).
        static let limit = 500

        mutating func read(_ store: FleetStore, into fleet: inout FleetModel, at time: Double, log: Log) {
            do {
                let since = cursor.map { caughtUp ? $0 - Self.overlap : $0 } ?? (time - 3_600)
                // A second's work at most: a web side just started catches up over a few seconds, answering meanwhile.
                let rows = try store.batches(since: since, limit: Self.limit)
                for (received, boat, seq, json) in rows {
                    let key = boat + "/" + String(seq)
                    cursor = max(cursor ?? received, received)
                    guard seen.updateValue(received, forKey: key) == nil else { continue }
                    fleet.take(topic: "telltale/" + boat + "/history", payload: Array(json.utf8), at: received)
                }
                caughtUp = rows.count < Self.limit
                if cursor == nil { cursor = time - Self.overlap }
                if let cursor, seen.count > 4 * Self.limit {
                    seen = seen.filter { $0.value > cursor - 2 * Self.overlap }
                }
                if time >= nextBoats {
                    nextBoats = time + 5
                    for (boat, online, alarms) in try store.boats() {
                        if let online {
                            fleet.take(
                                topic: "telltale/\(boat)/online", payload: Array((online ? "true" : "false").utf8),
                                at: time)
                        }
                        if let alarms {
                            fleet.take(topic: "telltale/\(boat)/alarms", payload: Array(alarms.utf8), at: time)
                        }
                    }
                }
            } catch {
                log.warning("fleet.store.read", "fleet: cannot read the store: \(error)", [("device", "fleet")])
            }
        }
    }
}
