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
    private(set) var inputs: InputService!
    private(set) var outputs: OutputService!
    private(set) var engine: EngineService!
    private(set) var web: WebService?
    private(set) var voice: Voice?
    private(set) var weather: WeatherService?
    private(set) var uplink: UplinkService?
    private let notifier: SystemdNotifier?
    let recorder: Recorder?
    var routeFile: RouteFile?
    /// The monotonic time the loop started (the engine's time zero), and UNIX seconds minus the monotonic clock.
    private(set) var startTime = 0.0
    private(set) var unixOffset = 0.0
    var lastSummary = 0.0
    /// When the loop ends for a restart on a saved configuration (a moment after the answer to the save is queued,
    /// so that it is sent), or nil.
    public private(set) var restartAt: Double?
    /// Seconds after the start when the startup code's pages are given back (``releaseProgramPages()``).
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
        // The services reach the runtime through these, once it is whole. Not a strong reference (the runtime owns the
        // services, which would then own it back); not `weak`, which Embedded Swift has not: the services are called
        // only from the runtime's own loop, while it lives.
        unowned(unsafe) var runtime: Runtime? = nil
        let inputs = InputService { event, input, now in runtime?.handle(event, from: input, at: now) }
        let outputs = OutputService { index, change, now in runtime?.clientChanged(output: index, change, at: now) }
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
        router = Router(
            engine: engine,
            outputs: outputs.outputs.map { output in
                output.policy(excluded: Set(endpoints.filter { $0.value == output.configuration.endpoint }.keys))
            })
        self.inputs = inputs
        self.outputs = outputs
        self.engine = EngineService(rate: configuration.tickRate) { now in runtime?.tick(at: now) }
        notifier =
            configuration.systemdNotify.map { SystemdNotifier(socketPath: $0.socket, watchdogUsec: $0.watchdogUsec) }
            ?? SystemdNotifier()
        web = try WebService.make(
            configuration.web, alarms: configuration.engine.alarms, chart: Self.chart(configuration),
            accessFile: configuration.stateFile.map { POSIX.folder(of: $0) + "/access.json" }, log: log,
            yield: { includingDue in runtime?.shouldYield(includingDue: includingDue) ?? false },
            carryOut: { command, now in runtime?.carryOut(command, at: now) ?? .refused("stopping") },
            answer: { kind, now in
                runtime?.answerSettings(kind, at: now) ?? GatewaySettings.Answer(status: 503, json: "{}")
            },
            unixTime: { now in runtime?.unixTime(at: now) ?? now })
        voice = configuration.voice.map { Voice(settings: $0, log: log) }
        weather = configuration.weather.folder(stateFile: configuration.stateFile).map { folder in
            WeatherService(configuration: configuration.weather, folder: folder, log: log) { forecast in
                runtime?.router.setForecast(forecast)
                runtime?.web?.setForecast(forecast)
            }
        }
        web?.uploads = weather?.incoming
        if let settings = configuration.uplink {
            if let state = configuration.stateFile {
                uplink = UplinkService(
                    configuration: settings, stateFolder: POSIX.folder(of: state), log: log,
                    ownFeed: web == nil
                        ? SignalKFeed(model: SignalKModel(urn: "uplink", name: nil), updateRate: 1) : nil,
                    carryOut: { command, now in runtime?.carryOut(command, at: now) ?? .refused("stopping") })
            } else {
                log.error("uplink.state", "uplink: needs state_file for its queue on disk; nothing is sent ashore")
            }
        }
        runtime = self
        loadRoute()
        restoreAnchor()
        for input in inputs.inputs {
            web?.name(input.source, input.name)
            uplink?.name(input.source, input.name)
        }
        router.observes = web != nil || uplink != nil
        services.append(outputs)
        services.append(web)
        services.append(voice)
        services.append(recorder)
        services.append(weather)
        services.append(uplink)
        services.append(Periodic(name: "housekeeping", every: 1) { now in runtime?.housekeeping(at: now) })
        services.append(self.engine)
        services.append(inputs)
        services.append(notifier)
    }

    /// The chart page's settings with what it draws from the alarms (the XTE corridor, the collision distance).
    static func chart(_ configuration: GatewayConfiguration) -> ChartConfiguration {
        var chart = configuration.chart
        chart.crossTrackLimit = configuration.engine.alarms.crossTrackLimit
        chart.collisionDistance = configuration.engine.alarms.collisionDistance
        return chart
    }

    /// Runs until SIGINT/SIGTERM (or `StopSignal.raise()`), `duration` seconds when given, or, with
    /// `untilInputsEnd`, one second after the last finite input has played its last sentence (a replay to outputs).
    public func run(duration: Double? = nil, untilInputsEnd: Bool = false) {
        let start = POSIX.monotonic()
        startTime = start
        lastSummary = start
        let unix = POSIX.unixTime()
        unixOffset = unix - start
        router.setClock(unixTime: unix, at: 0)
        services.start(at: start)
        var fds: [pollfd] = []
        fds.reserveCapacity(64)
        var endedAt: Double?
        while !StopSignal.isRaised {
            let now = POSIX.monotonic()
            if let duration, now - start >= duration { break }
            if StopSignal.takeReload() { restartAt = now }
            if let restartAt, now >= restartAt { break }
            if untilInputsEnd && inputs.finished {
                if let endedAt, now - endedAt > 1 { break }
                if endedAt == nil { endedAt = now }
            }
            fds.removeAll(keepingCapacity: true)
            let wake = services.prepare(now: now, into: &fds)
            _ = POSIX.poll(&fds, seconds: min(0.1, wake - POSIX.monotonic()))
            services.service(now: POSIX.monotonic(), polled: fds)
        }
        notifier?.reloading = restartAt != nil && !StopSignal.isRaised
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
