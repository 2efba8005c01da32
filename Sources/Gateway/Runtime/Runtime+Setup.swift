import Bridge
import Engine
import Marine
import NMEA
import Platform
import Router
import SignalK

/// What the runtime sets up before its loop, from the configuration: the services, the router's outputs, the boat's
/// model, the crew's files on the card.
extension Runtime {
    /// The inputs and outputs as configured, with the engine's source for each input and the router's policy for
    /// each output (an output never gets back what came from its own endpoint); the bus's output policy last.
    static func transports(
        _ configuration: GatewayConfiguration, engine: inout Engine, n2k: N2KService?, log: Log
    ) throws(POSIX.Failure) -> (InputService, OutputService, [OutputPolicy], busOutput: Int?) {
        let inputs = InputService()
        let outputs = OutputService()
        var endpoints: [SourceID: Endpoint] = [:]
        for input in configuration.inputs {
            guard let transport = try Transports.input(input, log: log) else { continue }
            let source = engine.source(named: input.name)
            endpoints[source] = input.endpoint
            inputs.add(transport, source: source, name: input.name)
        }
        if let imu = configuration.imu, let transport = Transports.imu(imu, log: log) {
            inputs.add(transport, source: engine.source(named: "imu"), name: "imu")
        }
        if let button = configuration.race.button {
            inputs.add(
                GPIOButton(chip: button.chip, line: button.line, log: log), source: engine.source(named: "button"),
                name: "button")
        }
        for output in configuration.outputs {
            guard let transport = try Transports.output(output, log: log) else { continue }
            outputs.add(Output(configuration: output, kinds: configuration.kinds(of: output), transport: transport))
        }
        var policies = outputs.outputs.map { output in
            output.policy(excluded: Set(endpoints.filter { $0.value == output.configuration.endpoint }.keys))
        }
        // What is converted onto the bus: the inputs' sentences the conversions read, never the bus's own.
        guard let policy = n2k?.outboundPolicy else { return (inputs, outputs, policies, nil) }
        policies.append(policy)
        return (inputs, outputs, policies, policies.count - 1)
    }

    /// The services as configured (the inputs and outputs made before, with the router's outputs).
    static func services(
        _ configuration: GatewayConfiguration, inputs: InputService, outputs: OutputService, n2k: N2KService?,
        recorder: Recorder?, state: BoatState?, log: Log
    ) throws(POSIX.Failure) -> GatewayServices {
        let autopilot = configuration.autopilot
        let pypilot =
            autopilot.pypilotHost != nil || autopilot.pypilotDiscovery
            ? PypilotService(host: autopilot.pypilotHost, port: autopilot.pypilotPort, log: log) : nil
        let web = try WebService.make(
            configuration.web, state: state,
            accessFile: configuration.stateFile.map { POSIX.folder(of: $0) + "/access.json" },
            historyPaths: configuration.history.paths,
            keepsHistory: configuration.history.enabled && configuration.stateFile != nil,
            commandsPilots: configuration.n2k.map { !$0.listenOnly } ?? false
                || configuration.outputs.contains { $0.autopilot } || pypilot != nil,
            log: log)
        let weather = configuration.weather.folder(stateFile: configuration.stateFile).map {
            WeatherService(configuration: configuration.weather, folder: $0, log: log)
        }
        let uplink: UplinkService? =
            if let settings = configuration.uplink, let folder = uplinkFolder(configuration) {
                UplinkService(configuration: settings, stateFolder: folder, log: log)
            } else {
                nil
            }
        let notifier =
            configuration.systemdNotify.map { SystemdNotifier(socketPath: $0.socket, watchdogUsec: $0.watchdogUsec) }
            ?? SystemdNotifier()
        return GatewayServices(
            inputs: inputs, outputs: outputs, engine: EngineService(rate: configuration.tickRate, log: log), web: web,
            voice: configuration.voice.map { Voice(settings: $0, log: log) }, weather: weather, uplink: uplink,
            n2k: n2k, pypilot: pypilot,
            tides: configuration.tides.enabled
                ? TideService(configuration: configuration.tides, stateFile: configuration.stateFile, log: log) : nil,
            routing: routing(configuration, weatherFolder: weather?.folder, log: log),
            calibration: calibration(configuration, log: log),
            recorder: recorder, notifier: notifier)
    }

    /// The weather router on board: with a state folder (where its answers go), unless `[routing] enabled = false`.
    static func routing(_ configuration: GatewayConfiguration, weatherFolder: String?, log: Log) -> RoutingService? {
        guard configuration.routing.enabled, let stateFile = configuration.stateFile else { return nil }
        let tides = configuration.tides
        let tideFiles =
            tides.enabled
            ? TideLibrary.paths(named: tides.files, folder: tides.folder(stateFile: stateFile), system: "")
            : []
        return RoutingService(
            configuration: configuration.routing, stateFolder: POSIX.folder(of: stateFile),
            polar: configuration.polarPath, weatherFolder: weatherFolder,
            basemap: BaseMapFiles.find(configured: configuration.chart.baseMap), tideFiles: tideFiles,
            learntPolar: CalibrationService.learntPolar(stateFolder: POSIX.folder(of: stateFile)), log: log)
    }

    /// Where the uplink keeps its queue: beside the state file (none without one).
    static func uplinkFolder(_ configuration: GatewayConfiguration) -> String? {
        configuration.uplink == nil ? nil : configuration.stateFile.map { POSIX.folder(of: $0) }
    }

    /// One model for the web server and the uplink: the web's when it is on, else a plain one for the uplink.
    static func boatState(_ configuration: GatewayConfiguration, log: Log) -> BoatState? {
        if configuration.uplink != nil && configuration.stateFile == nil {
            log.error("uplink.state", "uplink: needs state_file for its queue on disk; nothing is sent ashore")
        }
        if let web = configuration.web {
            return BoatState(feed: WebService.feed(web, alarms: configuration.engine.alarms))
        }
        guard uplinkFolder(configuration) != nil else { return nil }
        return BoatState(feed: SignalKFeed(model: SignalKModel(urn: "uplink", name: nil), updateRate: 1))
    }

    /// The crew's files on the card: the charts and the base map (said in the log), a phone's forecasts, the
    /// Resources API's folder, the history when kept.
    static func library(
        _ configuration: GatewayConfiguration, serving: Bool, weather: WeatherService?, state: BoatState?, log: Log
    ) -> Library {
        let charts = ChartLibrary(chart(configuration)) { text in log.warning("web.basemap", "web: \(text)") }
        charts.report = { name, reason in
            log.warning("web.chart", "web: chart \(name).mbtiles \(reason): listed as broken", [("chart", name)])
        }
        if serving, let folder = charts.folder {
            log.info(
                "web.charts", "web: charts from \(folder) (\(charts.names.count) MBTiles files)", [("path", folder)])
        }
        if let baseMap = charts.baseMap {
            log.info(
                "web.basemap", "web: the base map from \(baseMap.folder) (\(baseMap.resolutions) resolutions)",
                [("path", baseMap.folder)])
        }
        let stateFolder = configuration.stateFile.map { POSIX.folder(of: $0) }
        let history: HistoryStore? =
            if configuration.history.enabled, state != nil, let folder = stateFolder {
                HistoryStore(
                    folder: folder + "/history", keepMegabytes: configuration.history.keepMegabytes, log: log,
                    paths: configuration.history.paths, vesselInterval: configuration.history.vesselInterval,
                    vesselCount: configuration.history.vessels ? configuration.history.vesselCount : 0)
            } else {
                nil
            }
        return Library(
            charts: charts, uploads: GRIBUploads(folder: weather?.incoming, log: log),
            resources: ResourceFolder(folder: stateFolder.map { $0 + "/resources" }, configured: nil, log: log),
            history: history)
    }

    /// The chart page's settings with what it draws from the alarms (the XTE corridor, the collision distance).
    static func chart(_ configuration: GatewayConfiguration) -> ChartConfiguration {
        var chart = configuration.chart
        chart.crossTrackLimit = configuration.engine.alarms.crossTrackLimit
        chart.collisionDistance = configuration.engine.alarms.collisionDistance
        // Only a gateway that serves the panel maps the base map.
        if configuration.web == nil { chart.baseMap = "" }
        return chart
    }
}
