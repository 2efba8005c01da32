import Bridge
import CPosix
import Engine
import Marine
import NMEA
import Platform
import Router
import SignalK

/// `telltale run`: the services of the gateway around its router.
///
/// One thread, one `poll` loop. The inputs, the engine's tick, the outputs, the Signal K server, the voice, the
/// recorder and the systemd notifier are each a ``Service``, started in order and stopped in reverse; every input's
/// event goes into the ``Router``, the one door to the engine, and every action that comes out is carried out here
/// (``perform(_:now:)``). SIGINT/SIGTERM end the loop, the outputs flushed, within a second.
public final class Runtime {
    public let configuration: GatewayConfiguration
    /// The routing policy and the engine it owns: every sentence in and out, every command, goes through it.
    public internal(set) var router: Router
    let log: Log
    let status = StatusLine { POSIX.writeAll(2, $0) }
    private(set) var services = ServiceGroup()
    let inputs: InputService
    let outputs: OutputService
    let engine: EngineService
    let web: WebService?
    let voice: Voice?
    let weather: WeatherService?
    let uplink: UplinkService?
    /// The NMEA 2000 bus, when `[n2k]` is on; `n2kOutput` is the router's output for what is converted onto it.
    let n2k: N2KService?
    /// pypilot over TCP (`[autopilot] pypilot`).
    let pypilot: PypilotService?
    let n2kOutput: Int?
    /// The engine sources of the bus's devices, by name (registered as they are heard).
    var busSources: [String: SourceID] = [:]
    var busSourceIDs: Set<SourceID> = []
    private let notifier: SystemdNotifier?
    let recorder: Recorder?
    /// The boat's values in Signal K form, when the web server or the uplink serves them.
    let state: BoatState?
    /// The charts folder's MBTiles and the online layers, for the chart page; GRIB files a phone sends.
    let charts: ChartLibrary
    let uploads: GRIBUploads
    /// The crew's routes, waypoints, notes and regions (the Resources API), on the card beside the state file.
    let resources: ResourceFolder
    /// The boat's history on the card, when kept (`[history]`, a state file, and the model of `[web]` or `[uplink]`).
    let history: HistoryStore?
    /// When the system clock's synchronisation was last looked at, and what it said.
    private var clockCheckedAt = -Double.infinity
    private var systemClockSynchronized = false
    /// Whether the router's clock was the fixes' at the end of the last turn (read inside the tick, where the router
    /// itself may not be).
    var fixesClock = false
    /// Whether the uplink was let go on an unsynchronized system clock (a boat with no GPS), said once.
    var uplinkOnSystemClock = false
    /// The autopilots' policy: which pilots, what a command means, a tack's countdown (``AutopilotDesk``).
    var autopilot: AutopilotDesk
    var routeFile: RouteFile?
    /// The turn of the loop under way: its time, what poll said, its budget, what the services emitted.
    var turn = Turn()
    private var dispatching: [ServiceEvent] = []
    /// The monotonic time the loop started (the engine's time zero), and UNIX seconds minus the monotonic clock.
    private(set) var startTime = 0.0
    private(set) var unixOffset = 0.0
    var lastSummary = 0.0
    /// When the loop ends for a restart on a saved configuration (a moment after the answer to the save is queued,
    /// so that it is sent), or nil.
    public private(set) var restartAt: Double?
    /// Seconds after the start when the pages of code the first seconds needed (connecting, the first clients) are
    /// given back once more (``releaseProgramPages()``).
    static let releaseAfter = 20.0
    var programPagesReleased = false
    /// What the engine held at the last tick.
    public internal(set) var lastReport: EngineReport?
    /// Where the anchor watch is kept across restarts (beside the state file), and what was last kept there.
    let anchorFile: AnchorFile?
    var savedAnchor: AnchorSet?

    /// `log` receives every event the limiter lets through (repeats of one id and subject at most every 30 s).
    public init(configuration: GatewayConfiguration, log sink: @escaping (LogEvent) -> Void) throws(POSIX.Failure) {
        var limiter = LogLimiter()
        let status = self.status
        log = Log { event in
            guard let admitted = limiter.admit(event, at: POSIX.monotonic()) else { return }
            status.interrupt { sink(admitted) }
        }
        self.configuration = Self.calibrated(configuration, log: log)
        let configuration = self.configuration
        recorder = try configuration.record.map { settings throws(POSIX.Failure) in try Recorder(settings: settings) }
        if let settings = configuration.record {
            log.notice(
                "record.start", "recording every input sentence to \(settings.directory)",
                [("path", settings.directory)])
        }
        var engine = Self.engine(configuration, log: log)
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
        anchorFile = configuration.stateFile.map { AnchorFile(stateFile: $0) }
        var policies = outputs.outputs.map { output in
            output.policy(excluded: Set(endpoints.filter { $0.value == output.configuration.endpoint }.keys))
        }
        let n2k = configuration.n2k.map { [log] in
            N2KService(configuration: $0, stateFolder: configuration.stateFile.map { POSIX.folder(of: $0) }, log: log)
        }
        self.n2k = n2k
        pypilot =
            configuration.autopilot.pypilotHost != nil || configuration.autopilot.pypilotDiscovery
            ? PypilotService(
                host: configuration.autopilot.pypilotHost, port: configuration.autopilot.pypilotPort, log: log) : nil
        if let n2k, !n2k.bus.listenOnly, !n2k.configuration.convert.isEmpty {
            // What is converted onto the bus: the inputs' sentences the conversions read, never the bus's own.
            var policy = OutputPolicy(name: n2k.configuration.name)
            policy.computed = false
            policy.filter = AddressFilter(include: n2k.bus.outbound.patterns, exclude: [])
            policy.excludedInputs = [n2k.configuration.name]
            n2kOutput = policies.count
            policies.append(policy)
        } else {
            n2kOutput = nil
        }
        // Every 0183 output passes the bus's sentences on (an NMEA 2000 to 0183 gateway), unless it says otherwise.
        router = Router(engine: engine, outputs: policies)
        autopilot = AutopilotDesk(
            settings: AutopilotDesk.Settings(
                sentencePilots: configuration.outputs.filter { $0.autopilot }.map { $0.name }))
        self.inputs = inputs
        self.outputs = outputs
        self.engine = EngineService(rate: configuration.tickRate)
        notifier =
            configuration.systemdNotify.map { SystemdNotifier(socketPath: $0.socket, watchdogUsec: $0.watchdogUsec) }
            ?? SystemdNotifier()
        let uplinkFolder = configuration.uplink == nil ? nil : configuration.stateFile.map { POSIX.folder(of: $0) }
        if configuration.uplink != nil && uplinkFolder == nil {
            log.error("uplink.state", "uplink: needs state_file for its queue on disk; nothing is sent ashore")
        }
        // One model for the web server and the uplink: the web's when it is on, else a plain one for the uplink.
        state =
            if let web = configuration.web {
                BoatState(feed: WebService.feed(web, alarms: configuration.engine.alarms))
            } else if uplinkFolder != nil {
                BoatState(feed: SignalKFeed(model: SignalKModel(urn: "uplink", name: nil), updateRate: 1))
            } else {
                nil
            }
        web = try WebService.make(
            configuration.web, state: state,
            accessFile: configuration.stateFile.map { POSIX.folder(of: $0) + "/access.json" },
            historyPaths: configuration.history.paths,
            keepsHistory: configuration.history.enabled && configuration.stateFile != nil,
            commandsPilots: configuration.n2k.map { !$0.listenOnly } ?? false
                || configuration.outputs.contains { $0.autopilot } || configuration.autopilot.pypilotHost != nil
                || configuration.autopilot.pypilotDiscovery,
            log: log)
        charts = ChartLibrary(Self.chart(configuration)) { [log] text in log.warning("web.basemap", "web: \(text)") }
        charts.report = { [log] name, reason in
            log.warning("web.chart", "web: chart \(name).mbtiles \(reason): listed as broken", [("chart", name)])
        }
        if web != nil, let folder = charts.folder {
            log.info(
                "web.charts", "web: charts from \(folder) (\(charts.names.count) MBTiles files)", [("path", folder)])
        }
        if let baseMap = charts.baseMap {
            log.info(
                "web.basemap", "web: the base map from \(baseMap.folder) (\(baseMap.resolutions) resolutions)",
                [("path", baseMap.folder)])
        }
        voice = configuration.voice.map { [log] in Voice(settings: $0, log: log) }
        weather =
            if let folder = configuration.weather.folder(stateFile: configuration.stateFile) {
                WeatherService(configuration: configuration.weather, folder: folder, log: log)
            } else {
                nil
            }
        uploads = GRIBUploads(folder: weather?.incoming, log: log)
        resources = ResourceFolder(
            folder: configuration.stateFile.map { POSIX.folder(of: $0) + "/resources" }, configured: nil, log: log)
        history =
            if configuration.history.enabled, state != nil, let stateFile = configuration.stateFile {
                HistoryStore(
                    folder: POSIX.folder(of: stateFile) + "/history",
                    keepMegabytes: configuration.history.keepMegabytes,
                    log: log, paths: configuration.history.paths,
                    vesselInterval: configuration.history.vesselInterval,
                    vesselCount: configuration.history.vessels ? configuration.history.vesselCount : 0)
            } else {
                nil
            }
        uplink =
            if let settings = configuration.uplink, let folder = uplinkFolder {
                UplinkService(configuration: settings, stateFolder: folder, log: log)
            } else {
                nil
            }
        loadRoute()
        restoreAnchor()
        for input in inputs.inputs { state?.feed.name(input.source, input.name) }
        router.observes = state != nil
        services.append(outputs)
        services.append(web)
        services.append(voice)
        services.append(recorder)
        services.append(weather)
        services.append(uplink)
        services.append(Periodic(name: "housekeeping", every: 1, emitting: .housekeeping))
        services.append(self.engine)
        services.append(n2k)
        services.append(pypilot)
        services.append(inputs)
        services.append(notifier)
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

    /// Runs until SIGINT/SIGTERM (or `StopSignal.raise()`, or `stop` raised), `duration` seconds when given, or, with
    /// `untilInputsEnd`, one second after the last finite input has played its last sentence (a replay to outputs).
    ///
    /// Each turn: every service's descriptors, one `ppoll`, then each service's turn, producers first, and what it
    /// emitted dispatched before the next service's turn (so a sentence read is written out in the same turn).
    public func run(duration: Double? = nil, untilInputsEnd: Bool = false, stop: StopRequest? = nil) {
        // The code that read the configuration and set the services up is given back before the loop starts, so its
        // pages and the loop's are never resident together (the start-up peak is what the Pi has to have free); the
        // loop's come back page by page, one at a time.
        _ = POSIX.releaseProgramPages()
        let start = POSIX.monotonic()
        startTime = start
        lastSummary = start
        let unix = POSIX.unixTime()
        unixOffset = unix - start
        router.setClock(unixTime: unix, at: 0)
        turn.now = start
        turn.unixTime = unixTime(at: start)
        for service in services.services {
            service.start(&turn)
            dispatchEmitted()
        }
        // What the boot worked around (the image's notes: a boot partition late or broken, a configuration refused or
        // replaced), said in the gateway's own log as the panel shows it.
        for note in GatewaySettings(paths: configuration.settingsPaths).notes() {
            let words = note.split(whereSeparator: { $0 == "\n" }).joined(separator: " ")
            log.warning("system.note", "system: " + words)
        }
        var endedAt: Double?
        while !StopSignal.isRaised && stop?.isRaised != true {
            let now = POSIX.monotonic()
            if let duration, now - start >= duration { break }
            if StopSignal.takeReload() { restartAt = now }
            if let restartAt, now >= restartAt { break }
            if untilInputsEnd && inputs.finished {
                if let endedAt, now - endedAt > 1 { break }
                if endedAt == nil { endedAt = now }
            }
            turn.polled.removeAll()
            let wake = services.prepare(now: now, into: &turn.polled)
            turn.budget.inputs.removeAll()
            turn.budget.inputs.append(contentsOf: turn.polled, inputs.polledRange)
            turn.budget.due = min(engine.nextDue(now: now) ?? .infinity, inputs.nextInputDue)
            turn.polled.wait(seconds: min(0.1, wake - POSIX.monotonic()))
            turn.now = POSIX.monotonic()
            turn.unixTime = unixTime(at: turn.now)
            for service in services.services.reversed() {
                service.service(&turn)
                dispatchEmitted()
            }
            keepHistory()
        }
        notifier?.reloading = restartAt != nil && !StopSignal.isRaised
        history?.flush()
        services.stop(deadline: POSIX.monotonic() + 1)
        status.finish()
        let lateness = engine.lateness
        let p50 = TickLateness.milliseconds(lateness.percentile(0.5))
        let p99 = TickLateness.milliseconds(lateness.percentile(0.99))
        let counters = router.counters
        log(
            LogEvent(
                .notice, "stopped",
                "stopped: \(counters.sentencesIn) sentences in, \(counters.sentencesOut) out; "
                    + "tick lateness p50 \(p50) ms, p99 \(p99) ms",
                [("in", "\(counters.sentencesIn)"), ("out", "\(counters.sentencesOut)"), ("tick_p99_ms", p99)],
                throttled: false))
    }

    /// The system clock for the boat's records (the history, the uplink's samples) when no fix gives the time: taken
    /// only once systemd-timesyncd says it is synchronized (looked at once a minute) and no fix has given the time for
    /// two minutes, read as it is now (the router's copy of it is the one of the start); nil otherwise. The fixes'
    /// clock (GNSS, or a replay's) comes first, so a replay's voyage and this machine's day never share a timeline.
    func systemRecordClock(at now: Double) -> Double? {
        if now - clockCheckedAt > 60 {
            clockCheckedAt = now
            systemClockSynchronized = POSIX.exists("/run/systemd/timesync/synchronized")
        }
        return systemClockSynchronized && now - startTime > 120 ? POSIX.unixTime() : nil
    }

    /// This second's values into the history, on the records' clock (nothing while there is none). Outside the
    /// router's tick, so the router may be read; what the tick's actions need of it is kept in ``fixesClock``.
    private func keepHistory() {
        fixesClock = router.clockFromFixes
        guard let history, let state else { return }
        let clock = fixesClock ? unixTime(at: turn.now) : systemRecordClock(at: turn.now)
        history.record(state.model, unixTime: clock ?? 0, known: clock != nil)
        web?.server.setHistoryClock(clock)
    }

    /// What the service just serviced emitted, to the dispatcher, in order (the two buffers swapped, so that nothing
    /// is allocated once they have grown).
    private func dispatchEmitted() {
        guard !turn.events.isEmpty else { return }
        swap(&turn.events, &dispatching)
        for event in dispatching { dispatch(event) }
        dispatching.removeAll(keepingCapacity: true)
    }

    /// Whether the loop ended to start again on a new configuration (saved from the settings page, or SIGHUP).
    public var restartRequested: Bool { restartAt != nil }

    /// Asks the loop to end for a restart on the configuration file, half a second from `now` (the answer that
    /// asked for it goes out meanwhile).
    func requestRestart(at now: Double) {
        if restartAt == nil { restartAt = now + 0.5 }
    }

    /// A settings request from the panel: answered, and a saved configuration restarts the gateway on it.
    func answerSettings(_ kind: SignalKServer.SettingsRequest.Kind, at now: Double) -> GatewaySettings.Answer {
        let answer = GatewaySettings(paths: configuration.settingsPaths).handle(kind)
        if answer.restart {
            log.notice(
                "settings.saved", "settings: a new configuration was saved from the panel; restarting on it",
                [("path", configuration.settingsPaths.configuration ?? "")])
            requestRestart(at: now)
        }
        return answer
    }

    /// How late the engine's ticks ran.
    public var tickLateness: TickLateness { engine.lateness }

    /// The files the recorder wrote.
    public var recordedFiles: [String] { recorder?.files ?? [] }

    /// Engine seconds at a monotonic time.
    func engineTime(_ now: Double) -> Double { now - startTime }

    /// UTC (UNIX seconds) at a monotonic time: the router's clock (GNSS once a fix has a date).
    func unixTime(at now: Double) -> Double { router.unixTime(at: engineTime(now)) }
}
