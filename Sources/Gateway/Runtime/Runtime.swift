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
    /// The log's limiter, asked once a second for what it held back.
    let logGate: LogGate
    let status = StatusLine { POSIX.writeAll(2, $0) }
    /// The services, each by its kind, and in their starting order.
    let services: GatewayServices
    /// The boat's values in Signal K form, when the web server or the uplink serves them.
    let state: BoatState?
    /// The crew's files on the card: charts, a phone's forecasts, resources, the history.
    let library: Library
    /// The loop's clocks and the records' clock.
    var clock = RecordClock()
    /// The autopilots' policy: which pilots, what a command means, a tack's countdown (``AutopilotDesk``).
    var autopilot: AutopilotDesk
    /// The NMEA 2000 bus's devices as engine sources, and the router's output onto the bus.
    var bus: BusSources
    /// The anchor watch kept across restarts, and the configured route file watched for changes.
    var anchor: AnchorKeeper
    var routeFile: RouteFile?
    /// The once-a-second chores' own state: the last summary, the start-up code's pages given back.
    var chores = Chores()
    /// The turn of the loop under way: its time, what poll said, its budget, what the services emitted.
    var turn = Turn()
    private var dispatching: [ServiceEvent] = []
    /// When the loop ends for a restart on a saved configuration (a moment after the answer to the save is queued,
    /// so that it is sent), or nil.
    public private(set) var restartAt: Double?
    /// What the engine held at the last tick.
    public internal(set) var lastReport: EngineReport?

    /// Seconds after the start when the pages of code the first seconds needed (connecting, the first clients, the
    /// first commands) are given back once more (``releaseProgramPages()``): early and again, so that what only the
    /// start touches never piles up on the loop's own pages (the start-up peak is what the Pi must have free).
    static let releaseAfter: [Double] = [3, 6, 10, 15, 20, 30, 40, 60, 80]
    /// After those, every ten minutes: the backstop for code a rare request paged in (``releaseProgramPages()``).
    static let releaseEvery = 600.0

    /// `log` receives every event the limiter lets through (repeats of one id and subject at most every 30 s, what was
    /// held back said when the 30 s are over).
    public init(configuration: GatewayConfiguration, log sink: @escaping (LogEvent) -> Void) throws(POSIX.Failure) {
        let status = self.status
        let gate = LogGate { event in status.interrupt { sink(event) } }
        let log = Log { gate.admit($0) }
        self.log = log
        logGate = gate
        let configuration = Self.sailingCalibrated(Self.calibrated(configuration, log: log), log: log)
        self.configuration = configuration
        let recorder = try configuration.record.map { settings throws(POSIX.Failure) in
            try Recorder(settings: settings)
        }
        if let settings = configuration.record {
            log.notice(
                "record.start", "recording every input sentence to \(settings.directory)",
                [("path", settings.directory)])
        }
        var engine = Self.engine(configuration, log: log)
        let stateFolder = configuration.stateFile.map { POSIX.folder(of: $0) }
        let n2k = configuration.n2k.map { N2KService(configuration: $0, stateFolder: stateFolder, log: log) }
        let (inputs, outputs, policies, busOutput) = try Self.transports(
            configuration, engine: &engine, n2k: n2k, log: log)
        // Every 0183 output passes the bus's sentences on (an NMEA 2000 to 0183 gateway), unless it says otherwise.
        router = Router(engine: engine, outputs: policies)
        bus = BusSources(output: busOutput)
        autopilot = AutopilotDesk(
            settings: AutopilotDesk.Settings(
                sentencePilots: configuration.outputs.filter { $0.autopilot }.map { $0.name }))
        let state = Self.boatState(configuration, log: log)
        self.state = state
        let services = try Self.services(
            configuration, inputs: inputs, outputs: outputs, n2k: n2k, recorder: recorder, state: state, log: log)
        self.services = services
        library = Self.library(
            configuration, serving: services.web != nil, weather: services.weather, state: state, log: log)
        anchor = AnchorKeeper(file: configuration.stateFile.map { AnchorFile(stateFile: $0) })
        loadRoute()
        restoreAnchor()
        for input in inputs.inputs { state?.feed.name(input.source, input.name) }
        router.observes = state != nil
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
        let unix = POSIX.unixTime()
        clock.start(monotonic: start, unixTime: unix)
        chores.lastSummary = start
        router.setClock(unixTime: unix, at: 0)
        turn.now = start
        turn.unixTime = unixTime(at: start)
        for service in services.group.services {
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
            if untilInputsEnd && services.inputs.finished {
                if let endedAt, now - endedAt > 1 { break }
                if endedAt == nil { endedAt = now }
            }
            turn(at: now)
        }
        services.notifier?.reloading = restartAt != nil && !StopSignal.isRaised
        library.history?.flush()
        services.group.stop(deadline: POSIX.monotonic() + 1)
        status.finish()
        let lateness = services.engine.lateness
        let p50 = TickLateness.milliseconds(lateness.percentile(0.5))
        let p99 = TickLateness.milliseconds(lateness.percentile(0.99))
        let counters = router.counters
        logGate.sayHeldBack(all: true)
        log(
            LogEvent(
                .notice, "stopped",
                "stopped: \(counters.sentencesIn) sentences in, \(counters.sentencesOut) out; "
                    + "tick lateness p50 \(p50) ms, p99 \(p99) ms",
                [("in", "\(counters.sentencesIn)"), ("out", "\(counters.sentencesOut)"), ("tick_p99_ms", p99)],
                throttled: false))
    }

    /// One turn of the loop: every service's descriptors, one `ppoll`, then each service's turn, producers first, and
    /// what it emitted dispatched before the next service's turn (so a sentence read is written out in the same turn).
    private func turn(at now: Double) {
        turn.polled.removeAll()
        let wake = services.group.prepare(now: now, into: &turn.polled)
        turn.budget.inputs.removeAll()
        turn.budget.inputs.append(contentsOf: turn.polled, services.inputs.polledRange)
        turn.budget.due = min(services.engine.nextDue(now: now) ?? .infinity, services.inputs.nextInputDue)
        turn.polled.wait(seconds: min(0.1, wake - POSIX.monotonic()))
        turn.now = POSIX.monotonic()
        turn.unixTime = unixTime(at: turn.now)
        for service in services.group.services.reversed() {
            service.service(&turn)
            dispatchEmitted()
        }
        keepHistory()
    }

    /// This second's values into the history, on the records' clock (nothing while there is none). Outside the
    /// router's tick, so the router may be read; what the tick's actions need of it is kept in the clock.
    private func keepHistory() {
        clock.fromFixes = router.clockFromFixes
        guard let history = library.history, let state else { return }
        let records = clock.fromFixes ? unixTime(at: turn.now) : clock.system(at: turn.now)
        history.record(state.model, unixTime: records ?? 0, known: records != nil)
        services.web?.setHistoryClock(records)
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
        let answer = GatewaySettings(running: configuration).handle(kind)
        if answer.restart {
            log.notice(
                "settings.saved", "settings: a new configuration was saved from the panel; restarting on it",
                [("path", configuration.settingsPaths.configuration ?? "")])
            requestRestart(at: now)
        }
        return answer
    }

    /// How late the engine's ticks ran.
    public var tickLateness: TickLateness { services.engine.lateness }

    /// The files the recorder wrote.
    public var recordedFiles: [String] { services.recorder?.files ?? [] }

    /// Engine seconds at a monotonic time.
    func engineTime(_ now: Double) -> Double { clock.engineTime(now) }

    /// UTC (UNIX seconds) at a monotonic time: the router's clock (GNSS once a fix has a date).
    func unixTime(at now: Double) -> Double { router.unixTime(at: engineTime(now)) }
}

/// The NMEA 2000 bus's devices as the engine's sources, registered as they are heard, and the router's output onto the
/// bus (nil when nothing is converted onto it).
struct BusSources {
    /// The engine source of each device, by its name.
    var byDevice: [String: SourceID] = [:]
    var ids: Set<SourceID> = []
    let output: Int?
}

/// The anchor watch as last kept on the card (beside the state file).
struct AnchorKeeper {
    let file: AnchorFile?
    var saved: AnchorSet?
}

/// What the once-a-second chores remember: the last summary, whether the start-up code's pages were given back.
struct Chores {
    var lastSummary = 0.0
    /// How many of ``Runtime/releaseAfter``'s times have passed.
    var programPagesReleased = 0
    /// When the code a child job's answer paged in (the plan taken, the panel reading it) is given back again.
    var releaseAgainAt: Double?
    /// When the program's pages were last given back (the monotonic clock).
    var lastRelease = 0.0
}
