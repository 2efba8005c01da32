import Fleet
import Gateway
import Platform
import SignalK

/// The web side of `telltale fleet`: the panel's server with the Fleet layout, fed each second from what the brokers
/// handed over (the laptop) or from the store (`--role web`), the race office, and the store's answers to the panel.
final class ShoreWeb {
    let server: WebServer
    let store: FleetStore
    let role: FleetOptions.Role
    let log: Log
    /// The boats entered (`--entries`), and the race office when there are races or entries.
    let entries: [FleetEntry]
    let office: RaceOffice?
    /// Who may look (the accounts in the store, their sessions).
    let door: ShoreDoor
    /// The boat watch's alerts (the laptop's process).
    var watch: ShoreWatch?
    /// Web Push's keys (nil: off), and the push services besides the browsers' own (`--push-host`).
    var pushKeys: PushKeys?
    let pushHosts: [String]
    /// The public race page's delay (seconds; nil: off), and its JSON as last read from the store.
    let publicDelay: Double?
    private var publicJSON = #"{"boats":[]}"#
    private var publicAt = -Double.infinity
    /// The charts ashore: the offline base map (and MBTiles files when `--charts` names a folder).
    let charts: ChartLibrary
    /// The owners' history queries, read a page at a time.
    let histories = HistoryReadings()
    private var reader = StoreReader()
    private let model = SignalKModel(urn: "urn:mrn:signalk:uuid:00000000-0000-4000-8000-000000000000", name: "fleet")
    private var reads = 0
    private var readAt = -Double.infinity
    private var nextIdle = 0.0
    private var budget = TurnBudget.always

    init(_ options: FleetOptions, store: FleetStore, log: Log) throws(CommandError) {
        self.store = store
        self.log = log
        role = options.role
        pushHosts = options.pushHosts
        publicDelay = options.publicDelay
        entries = try Self.entries(options.entries, log: log)
        if let path = options.races {
            do { office = RaceOffice(races: try RaceFile.read(path), entries: entries) } catch {
                throw CommandError("fleet: --races \(error)", status: 65)
            }
        } else {
            office = entries.isEmpty ? nil : RaceOffice(races: [], entries: entries)
        }
        guard case .tcp(let host, let port)? = try? Endpoint.parse("tcp://" + options.listen) else {
            throw CommandError("fleet: --listen must be host:port, such as 0.0.0.0:3000", status: 64)
        }
        charts = Self.charts(options, log: log)
        door = ShoreDoor(store: store, entered: Set(entries.map(\.boat)), secure: true, log: log)
        var web = WebConfiguration()
        web.host = host
        web.port = port
        web.name = "fleet"
        var configuration = SignalKServer.Configuration()
        configuration.serverVersion = TelltaleVersion.string
        configuration.putRule = NetworkRule(networks: [])
        configuration.files = PanelFolder.files(in: PanelFolder.find(configured: nil), log: log)
        for (path, file) in WebService.leafletFiles(log: log) { configuration.files[path] = file }
        let cipher = try Self.https(options)
        do {
            server = try WebServer(
                settings: web, server: SignalKServer(configuration: configuration), log: log, cipher: cipher)
        } catch {
            throw CommandError("fleet: \(error)", status: 69)
        }
    }

    /// HTTPS through OpenSSL when the certificate and its key are given (both, or neither).
    static func https(_ options: FleetOptions) throws(CommandError) -> WebServer.Cipher? {
        switch (options.tlsCertificate, options.tlsKey) {
        case (nil, nil): return nil
        case (let certificate?, let key?):
            let ssl = try OpenSSL()
            try ssl.serve(certificate: certificate, key: key)
            return ssl.cipher
        default: throw CommandError("fleet: --tls-cert and --tls-key go together", status: 64)
        }
    }

    /// The fleet file, read once: a file that cannot be read stops the start; a line that cannot be an entry is said
    /// and left out.
    static func entries(_ path: String?, log: Log) throws(CommandError) -> [FleetEntry] {
        guard let path else { return [] }
        let bytes: [UInt8]
        do { bytes = try POSIX.readFile(path, limit: 16 << 20) } catch {
            throw CommandError("fleet: --entries \(path): \(error)", status: 66)
        }
        let (read, problems) = FleetEntries.parse(String(decoding: bytes, as: UTF8.self))
        for problem in problems.prefix(50) {
            log.warning("fleet.entries", "fleet: \(path): \(problem)", [("device", "fleet")])
        }
        guard !read.isEmpty else { throw CommandError("fleet: --entries \(path): no boat entered", status: 65) }
        log.info("fleet.entries", "fleet: \(read.count) boats entered from \(path)", [("device", "fleet")])
        return read
    }

    /// The web side's turn: once a second the store read (a web side's), the race office fed and the fleet's JSON
    /// published; a race being read a few boats further every turn; the server's clients; the requests it hands over.
    func turn(fleet: inout FleetModel, second: Bool, now: Double, unixTime unix: Double) {
        if second {
            if door.refresh(at: unix) {
                server.setGate(door.closed ? ShoreDoor.gate(racePage: publicDelay != nil) : nil)
                server.setViewers(door.viewers)
            }
            if role == .web { reader.read(store, into: &fleet, at: unix, log: log) }
            if let publicDelay, unix - publicAt >= 10 {
                publicJSON = publicFleet(delay: publicDelay, at: unix)
                publicAt = unix
            }
            if let office {
                office.feed(fleet.takeFresh(), at: unix)
                office.work(store: store, at: unix, log: log)
            }
            // The fleet's JSON every second while a panel reads it, every ten while none does.
            if server.fleetReads != reads {
                reads = server.fleetReads
                readAt = now
            }
            if now - readAt < 10 || now >= nextIdle {
                // At race scale each boat's track is shorter on the live view (replay draws it whole).
                let limit = max(20, min(300, 60_000 / max(1, fleet.boats.count)))
                server.setFleet(fleet.json(at: unix, trackLimit: limit, entries: entries))
                if door.closed { server.setFleetScoped(scopedViews(fleet, at: unix, trackLimit: limit)) }
                nextIdle = now + 10
            }
        } else if let office, office.reading {
            // A race being read from the store: a few more boats every turn, requests answered between.
            office.work(store: store, at: unix, log: log)
        }
        for (id, reply) in histories.work(store, log: log) {
            server.answer(id, reply, model: model, now: now, unixTime: unix)
        }
        server.service(model: model, now: now, unixTime: unix, budget: &budget)
        while let request = server.takeRequest() {
            let reply: SignalKServer.ShellReply
            switch request.kind {
            case .keepAccess: continue
            case .fleet(let asked) where asked.path.hasPrefix("alerts"):
                reply = alerts(asked)
            case .fleet(let asked) where asked.path.hasPrefix("push/"):
                reply = push(asked, at: unix)
            case .fleet(let asked) where asked.path.hasPrefix("boats/") && asked.path.hasSuffix("/values"):
                guard let answer = boat(asked, fleet, request: request.id, at: unix) else { continue }
                reply = answer
            case .fleet(let asked) where asked.path == "public":
                reply =
                    publicDelay == nil
                    ? .message(status: 404, "no public race page on this shore (--public-delay)")
                    : .json(status: 200, publicJSON)
            case .fleet(let asked):
                reply = FleetQueries.answer(asked, store: store, office: office, at: unix, log: log)
            case .login(let asked):
                reply = door.answer(asked, at: unix)
                server.setViewers(door.viewers)
                if door.closed { server.setFleetScoped(scopedViews(fleet, at: unix, trackLimit: 300)) }
            case .chart(let kind):
                let (status, type, body) = charts.answer(kind, now: now)
                reply = .file(status: status, contentType: type, body: body)
            default: reply = .message(status: 404, "not on a fleet's server")
            }
            server.answer(request.id, reply, model: model, now: now, unixTime: unix)
        }
    }

    /// The Fleet layout's JSON for each scope a session has (the owner's one boat, the committee's entered boats,
    /// everything for the administrator), the entries of the boats it does not see left out too.
    func scopedViews(_ fleet: FleetModel, at unix: Double, trackLimit: Int) -> [String: String] {
        var views: [String: String] = [:]
        for viewer in door.viewers.values where views[viewer.scope] == nil {
            let seen = entries.filter { viewer.sees($0.boat) }
            views[viewer.scope] = fleet.json(at: unix, trackLimit: trackLimit, entries: seen, only: viewer.boats)
        }
        return views
    }

    /// `alerts`: the boat watch's open alerts the asker may see; `alerts/acknowledge?boat=&kind=` (POST): no more
    /// repeats of one (its all clear still comes), by its boat's owner, crew or those who see it.
    func alerts(_ asked: SignalKServer.FleetRequest) -> SignalKServer.ShellReply {
        guard let watch else {
            return .message(status: 404, "the boat watch runs in the process that follows the brokers")
        }
        if asked.path == "alerts" { return .json(status: 200, watch.json(seeing: asked.boats, role: asked.role)) }
        guard asked.path == "alerts/acknowledge", let boat = asked.parameters["boat"],
            let kind = asked.parameters["kind"]
        else { return .message(status: 404, "alerts, or alerts/acknowledge?boat=&kind=") }
        guard asked.boats?.contains(boat) ?? true else { return .message(status: 403, "not a boat of yours") }
        watch.acknowledge(boat, ShoreWatch.kind(kind))
        return .message(status: 200, "acknowledged")
    }
}
