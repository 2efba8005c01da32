import CPosix
import Engine
import Marine
import Platform
import Router
import SignalK

/// The Signal K server and the panel inside `telltale run`, as a service: the model fed from the router's actions
/// (``SignalKFeed``), the server's sockets serviced in the same loop, the commands a client sends carried out through
/// the router by the runtime, and the answers handed back.
final class WebService: Service {
    let name = "web"
    let server: WebServer
    private(set) var feed: SignalKFeed
    /// Whether an input has a sentence waiting (or, when asked with true, one or the tick has come due): the web's
    /// work stops between two clients for it.
    private let yield: (Bool) -> Bool
    /// Carries a client's command out (the runtime, through the router), at a monotonic time.
    private let carryOut: (EngineCommand, Double) -> CommandOutcome
    /// Answers a request for the gateway's settings (the runtime), at a monotonic time.
    private let settings: (SignalKServer.SettingsRequest.Kind, Double) -> GatewaySettings.Answer
    private let unixTime: (Double) -> Double
    /// `[web] put_networks` as written, and the rule it last came to.
    var putNetworks: [String] = []
    var putRule = NetworkRule(networks: [])
    var log: Log?
    var lastLocal: [NetworkRule.Network]?
    /// Where the access registry is kept (beside the state file), or nil to keep it only in memory.
    var accessFile: String?
    private var nextPutRuleRefresh = 0.0
    /// The charts folder's MBTiles and the online layers, for the chart page.
    var charts = ChartLibrary(ChartConfiguration())

    init(
        server: WebServer, feed: SignalKFeed, yield: @escaping (Bool) -> Bool,
        carryOut: @escaping (EngineCommand, Double) -> CommandOutcome,
        settings: @escaping (SignalKServer.SettingsRequest.Kind, Double) -> GatewaySettings.Answer,
        unixTime: @escaping (Double) -> Double
    ) {
        self.server = server
        self.feed = feed
        self.yield = yield
        self.carryOut = carryOut
        self.settings = settings
        self.unixTime = unixTime
    }

    /// The forecasts on board, for the weather pages and Signal K's weather API.
    func setForecast(_ forecast: Forecast) { server.setForecast(forecast) }

    /// Where a GRIB file sent from a phone goes, for the weather service to import (nil: no weather folder).
    var uploads: String?

    /// Writes a piece of a GRIB file a phone sends into the uploads folder (`.NAME.part` until it is whole, then
    /// `NAME`, which the weather service imports); pieces come in order, a piece out of order is refused with the
    /// offset to resend from.
    func receive(_ request: SignalKServer.UploadRequest) -> (Int, String) {
        guard let folder = uploads else { return (503, "no weather folder: set state_file or [weather] folder") }
        let partial = folder + "/." + request.name + ".part"
        let have = request.offset == 0 ? 0 : (POSIX.stamp(partial)?.size ?? 0)
        guard have == request.offset else { return (409, "resend from \(have)") }
        do throws(POSIX.Failure) {
            let length = try POSIX.append(partial, request.bytes, truncating: request.offset == 0)
            guard length >= request.total else { return (202, "\(length) of \(request.total) bytes") }
            guard length == request.total else {
                _ = POSIX.remove(partial)
                return (400, "longer than said: \(length) bytes, not \(request.total)")
            }
            try POSIX.rename(partial, to: folder + "/" + request.name)
            log?.notice(
                "weather.upload", "weather: \(request.name) received from a phone (\(length) bytes)",
                [("path", folder + "/" + request.name)])
            return (201, "\(request.name) received: importing it")
        } catch {
            return (507, "\(error)")
        }
    }

    /// Opens the server when `[web]` is on; the listening address and who may change things are logged.
    static func make(
        _ settings: WebConfiguration?, alarms: AlarmSettings, chart: ChartConfiguration = ChartConfiguration(),
        accessFile: String?, log: Log,
        yield: @escaping (Bool) -> Bool,
        carryOut: @escaping (EngineCommand, Double) -> CommandOutcome,
        answer: @escaping (SignalKServer.SettingsRequest.Kind, Double) -> GatewaySettings.Answer,
        unixTime: @escaping (Double) -> Double
    ) throws(POSIX.Failure) -> WebService? {
        guard let settings else { return nil }
        var configuration = SignalKServer.Configuration()
        configuration.serverVersion = TelltaleVersion.string
        let local = localNetworks()
        configuration.putRule = admitted(settings.putNetworks, local: local, log: log)
        configuration.files = PanelFiles.all
        for (path, file) in leafletFiles(log: log) { configuration.files[path] = file }
        configuration.access = loadAccess(accessFile, log: log)
        configuration.maximumConnections = settings.maximumClients
        configuration.maximumPerAddress = min(settings.maximumPerAddress, settings.maximumClients)
        // Three streams in four slots at most, so discovery and the panel's files always find one.
        configuration.maximumStreams = max(1, settings.maximumClients * 3 / 4)
        configuration.maximumStreamsPerAddress = max(
            1, min(configuration.maximumStreams, settings.maximumPerAddress * 3 / 4))
        let server = try WebServer(settings: settings, server: SignalKServer(configuration: configuration), log: log)
        let urn = settings.urn ?? SignalKModel.urn(seed: machineIdentity())
        log.notice(
            "web.listening",
            "web: Signal K on http://\(Endpoint.bracketed(settings.host)):\(server.port)/signalk (self \(urn))",
            [("port", "\(server.port)")])
        var model = SignalKModel(urn: urn, name: settings.name)
        model.sourcePriority = settings.sourcePriority
        let feed = SignalKFeed(
            model: model, updateRate: settings.updateRate,
            heelAlarms: (alarms.overHeel, alarms.underHeel))
        let service = WebService(
            server: server, feed: feed, yield: yield, carryOut: carryOut, settings: answer, unixTime: unixTime)
        service.putNetworks = settings.putNetworks
        service.putRule = configuration.putRule
        service.lastLocal = local
        service.log = log
        service.accessFile = accessFile
        service.charts = ChartLibrary(chart)
        service.charts.report = { name, reason in
            log.warning("web.chart", "web: chart \(name).mbtiles \(reason): listed as broken", [("chart", name)])
        }
        if let folder = chart.folder {
            log.info(
                "web.charts", "web: charts from \(folder) (\(service.charts.names.count) MBTiles files)",
                [("path", folder)])
        }
        return service
    }

    /// Where Debian's libjs-leaflet keeps Leaflet, the map library the chart page uses.
    static let leafletFolder = "/usr/share/javascript/leaflet"

    /// Leaflet's script, style sheet and images from Debian's package, served at `/leaflet/...` (the script and style
    /// sheet in the package's own gzip form). Read once at the start (70 KB); without the package the chart page says
    /// so and the instruments work on.
    static func leafletFiles(log: Log, folder: String = leafletFolder) -> [(String, SignalKServer.StaticFile)] {
        var files: [(String, SignalKServer.StaticFile)] = []
        let wanted: [(String, String, String, Bool)] = [
            ("/leaflet/leaflet.js", "leaflet.min.js.gz", "text/javascript; charset=utf-8", true),
            ("/leaflet/leaflet.css", "leaflet.css.gz", "text/css; charset=utf-8", true),
            ("/leaflet/images/layers.png", "images/layers.png", "image/png", false),
            ("/leaflet/images/layers-2x.png", "images/layers-2x.png", "image/png", false),
            ("/leaflet/images/marker-icon.png", "images/marker-icon.png", "image/png", false),
            ("/leaflet/images/marker-icon-2x.png", "images/marker-icon-2x.png", "image/png", false),
            ("/leaflet/images/marker-shadow.png", "images/marker-shadow.png", "image/png", false),
        ]
        for (path, name, type, gzipped) in wanted {
            guard let bytes = try? POSIX.readFile(folder + "/" + name, limit: 1 << 20) else { continue }
            files.append((path, SignalKServer.StaticFile(contentType: type, bytes: bytes, gzipped: gzipped)))
        }
        if files.count < 2 {
            log.warning(
                "web.leaflet", "web: no Leaflet in \(folder) (Debian's libjs-leaflet): the chart page cannot draw",
                [("path", folder)])
        }
        return files
    }

    /// The devices approved and the requests waiting, as the state folder kept them, with a new secret for the
    /// tokens made from now. A file that cannot be read is logged and left for a new one.
    static func loadAccess(_ path: String?, log: Log) -> AccessRegistry {
        let secret = (try? POSIX.randomBytes(32)) ?? []
        guard let path, POSIX.exists(path) else { return AccessRegistry(secret: secret) }
        guard let bytes = try? POSIX.readFile(path) else {
            log.error("web.access", "web: cannot read \(path); approved devices must ask again", [("path", path)])
            return AccessRegistry(secret: secret)
        }
        let registry = AccessRegistry(json: bytes, secret: secret)
        log.info(
            "web.access", "web: \(registry.devices.count) devices approved to change things (\(path))",
            [("devices", "\(registry.devices.count)")])
        return registry
    }

    /// Keeps the access registry in the state folder (written whole or not at all, readable by the gateway only).
    private func saveAccess() {
        guard let text = server.takeAccessToSave(), let accessFile else { return }
        do {
            try POSIX.writeFileAtomically(accessFile, text, mode: 0o600)
        } catch {
            log?.error("web.access", "web: cannot keep the approved devices: \(error)", [("path", accessFile)])
        }
    }

    /// This machine's own networks now.
    static func localNetworks() -> [NetworkRule.Network] {
        POSIX.localNetworks().map { NetworkRule.Network(address: $0.address, prefix: $0.prefix) }
    }

    /// The networks `put_networks` names, `local` as `local` (this machine's own networks); logged.
    static func admitted(_ words: [String], local: [NetworkRule.Network], log: Log) -> NetworkRule {
        var networks: [NetworkRule.Network] = []
        for word in words {
            switch word {
            case "loopback": networks += NetworkRule.loopback
            case "local": networks += local
            default: if let network = NetworkRule.Network(word) { networks.append(network) }
            }
        }
        let texts = networks.map { network in NetworkRule.Network.text(network.address) + "/\(network.prefix)" }
        log.info(
            "web.put-networks", "web: changes (PUT) accepted from " + texts.joined(separator: ", "),
            [("networks", "\(texts.count)")])
        return NetworkRule(networks: networks)
    }

    /// `local` looked at again every few seconds: the Pi's addresses come after the gateway has started (DHCP, the
    /// access point) and change when it moves from the marina's Wi-Fi to its own.
    private func refreshPutRule(now: Double) {
        guard putNetworks.contains("local"), now >= nextPutRuleRefresh else { return }
        nextPutRuleRefresh = now + 5
        let local = Self.localNetworks()
        guard local != lastLocal else { return }
        lastLocal = local
        putRule = Self.admitted(putNetworks, local: local, log: log ?? Log { _ in })
        server.admit(putRule)
    }

    /// This machine's stable identity (systemd's machine id), so the boat's URN survives restarts.
    static func machineIdentity() -> String {
        for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
            if let bytes = try? POSIX.readFile(path), bytes.count >= 16 {
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        return "telltale"
    }

    /// An input registered under `name`: the `$source` of the values it passes through.
    func name(_ source: SourceID, _ name: String) { feed.name(source, name) }

    /// What the engine took or holds (the router's actions), into the model; after a tick, the updates to the
    /// stream clients and what their subscriptions owe, yielding to the inputs between clients.
    func take(_ action: Router.Action, now: Double) {
        feed.take(action)
        guard case .report = action else { return }
        let updates = feed.takeUpdates()
        let yield = { self.yield(false) }
        server.publish(updates, model: feed.model, now: now, yield: yield)
        server.publishTraffic(feed.takeTrafficDeltas())
        server.tick(model: feed.model, now: now, yield: yield)
    }

    func pollDescriptors(now: Double, into fds: inout [pollfd]) { server.pollDescriptors(into: &fds) }

    /// Stream work a tick left (it stopped for an input) goes on in the next turn, without waiting.
    func nextDue(now: Double) -> Double? { server.hasUnfinishedRounds ? now : nil }

    /// Accepts, reads and writes the clients, yielding the loop back to the inputs as soon as one has a sentence
    /// waiting (or the tick comes due); then the commands clients sent, carried out and answered.
    func service(now: Double, polled fds: [pollfd]) {
        refreshPutRule(now: now)
        server.service(model: feed.model, now: now, unixTime: unixTime(now), yield: { yield(true) })
        while let request = server.takeCommand() {
            let outcome = carryOut(request.command, now)
            server.answer(request, outcome, model: feed.model, now: now, unixTime: unixTime(now))
        }
        while let request = server.takeChartRequest() {
            let (status, contentType, body) = charts.answer(request.kind, now: now)
            server.answer(
                request, status: status, contentType: contentType, body: body, model: feed.model, now: now,
                unixTime: unixTime(now))
        }
        while let request = server.takeUpload() {
            let (status, message) = receive(request)
            server.answer(
                request, status: status, message: message, model: feed.model, now: now, unixTime: unixTime(now))
        }
        while let request = server.takeSettingsRequest() {
            let answer = settings(request.kind, now)
            server.answer(
                request, status: answer.status, json: answer.json, model: feed.model, now: now, unixTime: unixTime(now))
        }
        saveAccess()
    }

    func stop(deadline: Double) { server.close() }
}
