import CPosix
import Engine
import Marine
import Platform
import Router
import SignalK

/// The Signal K server and the panel inside `telltale run`, as a service: the server's sockets serviced in the same
/// loop, reading the boat's model (``BoatState``, fed by the runtime from the router's actions); what only the shell
/// can answer (a command, the settings, a chart's tile, an upload, the access registry to keep) emitted as
/// ``ServiceEvent/request(_:)`` and answered through ``answer(_:_:now:unixTime:)``.
package final class WebService: Service {
    let name = "web"
    let server: WebServer
    /// The boat's values, which the runtime feeds.
    let state: BoatState
    /// `[web] put_networks` as written, and the rule it last came to.
    var putNetworks: [String] = []
    var putRule = NetworkRule(networks: [])
    var log: Log?
    var lastLocal: [NetworkRule.Network]?
    /// Where the access registry is kept (beside the state file), or nil to keep it only in memory.
    var accessFile: String?
    private var nextPutRuleRefresh = 0.0

    init(server: WebServer, state: BoatState) {
        self.server = server
        self.state = state
    }

    /// The forecasts on board, for the weather pages and Signal K's weather API.
    func setForecast(_ forecast: Forecast) { server.setForecast(forecast) }

    /// The autopilots as the Autopilot API lists them.
    func setAutopilots(_ statuses: [AutopilotStatus]) { server.setAutopilots(statuses) }

    /// The clock the history is kept on (UNIX seconds now), nil while there is none.
    func setHistoryClock(_ unixTime: Double?) { server.setHistoryClock(unixTime) }

    /// The next request a client sent that only the shell can answer.
    func takeRequest() -> SignalKServer.ShellRequest? { server.takeRequest() }

    /// The port it listens on.
    var port: Int { server.port }

    /// The model a `[web]` section asks for: the boat's URN (from the machine's identity unless given), its name, the
    /// sources preferred, the heel alarms shown.
    static func feed(_ settings: WebConfiguration, alarms: AlarmSettings) -> SignalKFeed {
        let urn = settings.urn ?? SignalKModel.urn(seed: machineIdentity())
        var model = SignalKModel(urn: urn, name: settings.name)
        model.sourcePriority = settings.sourcePriority
        return SignalKFeed(
            model: model, updateRate: settings.updateRate, heelAlarms: (alarms.overHeel, alarms.underHeel))
    }

    /// Opens the server when `[web]` is on, serving `state`; the listening address and who may change things are
    /// logged.
    static func make(
        _ settings: WebConfiguration?, state: BoatState?, accessFile: String?, historyPaths: [String] = [],
        keepsHistory: Bool = false, commandsPilots: Bool = false, log: Log
    ) throws(POSIX.Failure) -> WebService? {
        guard let settings, let state else { return nil }
        var configuration = SignalKServer.Configuration()
        configuration.keepsHistory = keepsHistory
        configuration.commandsPilots = commandsPilots
        configuration.historyPaths = HistoryBlock.paths + historyPaths
        configuration.serverVersion = TelltaleVersion.string
        let local = localNetworks()
        configuration.putRule = admitted(settings.putNetworks, local: local, log: log)
        configuration.files = PanelFolder.files(in: PanelFolder.find(configured: settings.panel), log: log)
        for (path, file) in leafletFiles(log: log) { configuration.files[path] = file }
        configuration.access = loadAccess(accessFile, log: log)
        configuration.maximumConnections = settings.maximumClients
        configuration.maximumPerAddress = min(settings.maximumPerAddress, settings.maximumClients)
        // Three streams in four slots at most, so discovery and the panel's files always find one.
        configuration.maximumStreams = max(1, settings.maximumClients * 3 / 4)
        configuration.maximumStreamsPerAddress = max(
            1, min(configuration.maximumStreams, settings.maximumPerAddress * 3 / 4))
        let server = try WebServer(settings: settings, server: SignalKServer(configuration: configuration), log: log)
        log.notice(
            "web.listening",
            "web: Signal K on http://\(Endpoint.bracketed(settings.host)):\(server.port)/signalk (self \(state.model.urn))",
            [("port", "\(server.port)")])
        let service = WebService(server: server, state: state)
        service.putNetworks = settings.putNetworks
        service.putRule = configuration.putRule
        service.lastLocal = local
        service.log = log
        service.accessFile = accessFile
        return service
    }

    /// Where Debian's libjs-leaflet keeps Leaflet, the map library the chart page uses.
    package static let leafletFolder = "/usr/share/javascript/leaflet"

    /// Leaflet's script, style sheet and images from Debian's package, served at `/leaflet/...` (the script and style
    /// sheet in the package's own gzip form). Each file is mapped read-only at the start (70 KB, the kernel's to read
    /// when a phone first opens the chart and to drop again); without the package the chart page says so and the
    /// instruments work on.
    package static func leafletFiles(log: Log, folder: String = leafletFolder) -> [(String, SignalKServer.StaticFile)] {
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
            guard let bytes = try? POSIX.map(folder + "/" + name, limit: 1 << 20) else { continue }
            files.append((path, SignalKServer.StaticFile(contentType: type, mapped: bytes, gzipped: gzipped)))
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
    func keepAccess(_ text: String) {
        guard let accessFile else { return }
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

    /// New values after a tick, to the stream clients (a client at a time until `budget` is spent), the AIS
    /// stations' deltas, and what the subscriptions owe.
    func publish(
        _ updates: [SignalKModel.Update], traffic: [SignalKTraffic.Delta], now: Double, budget: inout TurnBudget
    ) {
        server.publish(updates, model: state.model, now: now, budget: &budget)
        server.publishTraffic(traffic)
        server.tick(model: state.model, now: now, budget: &budget)
    }

    func pollDescriptors(now: Double, into set: inout PollSet) { server.pollDescriptors(into: &set) }

    /// Stream work a tick left (it stopped for an input) goes on in the next turn, without waiting.
    func nextDue(now: Double) -> Double? { server.hasUnfinishedRounds ? now : nil }

    /// Accepts, reads and writes the clients, giving the loop back to the inputs as soon as one has a sentence
    /// waiting (or the tick comes due); then what clients asked of the shell, emitted.
    func service(_ turn: inout Turn) {
        refreshPutRule(now: turn.now)
        server.service(model: state.model, now: turn.now, unixTime: turn.unixTime, budget: &turn.budget)
        while let request = server.takeRequest() { turn.emit(.request(request)) }
    }

    /// The shell's answer to a request this service emitted.
    func answer(_ id: Int, _ reply: SignalKServer.ShellReply, now: Double, unixTime: Double) {
        server.answer(id, reply, model: state.model, now: now, unixTime: unixTime)
    }

    func stop(deadline: Double) { server.close() }
}
