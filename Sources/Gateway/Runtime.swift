import CPosix
import Engine
import Marine
import NMEA
import Platform
import Router
import SignalK

/// `telltale run`: inputs into the router, the router's actions out to the outputs.
///
/// One thread, one `poll` loop. Every input and output is reached through ``InputTransport`` and
/// ``OutputTransport``, never by kind; every routing decision is the ``Router``'s. The engine ticks at its fixed
/// rate, TCP clients are served without blocking, and SIGINT/SIGTERM end the loop, outputs flushed, within a second.
public final class Runtime {
    public struct Counters: Sendable {
        public var sentencesIn = 0
        /// Lines refused while framing.
        public var rejected = 0
        public var sentencesOut = 0
        public var routeReloads = 0
    }

    public let configuration: GatewayConfiguration
    public internal(set) var counters = Counters()
    public private(set) var tickLateness = TickLateness()
    /// The routing policy and the engine it owns: every sentence in and out goes through it.
    public internal(set) var router: Router
    public var engine: Engine { router.engine }
    var inputs: [(transport: any InputTransport, source: SourceID, name: String)] = []
    var outputs: [Output] = []
    var routeFile: RouteFile?
    let recorder: Recorder?
    /// Per input: sentences (or samples, or fixes) taken, and values implausible (its rejected lines it counts itself).
    var received: [SourceID: Int] = [:]
    var implausibleBySource: [SourceID: Int] = [:]
    var lastSummary = POSIX.monotonic()
    /// The monotonic time the loop started: the engine's time zero.
    var startTime = 0.0
    /// UNIX seconds minus the runtime's monotonic clock: receive times for the recorder.
    var unixOffset = 0.0
    /// One sentence's bytes on their way to an output (reused: nothing allocated per sentence).
    var wire: [UInt8] = []
    let status = StatusLine { POSIX.writeAll(2, $0) }
    let log: Log
    /// The Signal K server and its model, when `[web]` is on.
    var web: WebServer?
    var signalK: SignalKModel?
    var nextWebUpdate = 0.0
    /// The engine's alarm revision the Signal K model last saw: an alarm goes out at once, not at the update rate.
    var webAlarmRevision = 0
    var observed: [(Sentence, SourceID)] = []
    /// The inputs' descriptors of this turn's poll, polled again (without waiting) between web clients.
    var inputDescriptors: [pollfd] = []
    /// The announcements spoken, when `[voice]` is on.
    let voice: Voice?
    let webUpdateRate: Double

    /// `log` receives every event the limiter lets through (repeats of one id and subject at most every 30 s).
    public init(configuration: GatewayConfiguration, log sink: @escaping (LogEvent) -> Void) throws(POSIX.Failure) {
        var limiter = LogLimiter()
        let status = self.status
        log = Log { event in
            guard let admitted = limiter.admit(event, at: POSIX.monotonic()) else { return }
            status.interrupt { sink(admitted) }
        }
        // What calibration learnt, for the IMU it was made with.
        var configuration = configuration
        if let path = configuration.stateFile, configuration.imu != nil {
            do {
                if let message = try StateFile.load(path).apply(to: &configuration) {
                    log.info("state.loaded", message, [("path", path)])
                }
            } catch {
                log.warning("state.unreadable", "state: \(error); the IMU runs uncalibrated", [("path", path)])
            }
        }
        self.configuration = configuration
        var engine = Engine(configuration: configuration.engine)
        engine.raceTimer = RaceTimer(
            sequenceMinutes: configuration.race.sequenceMinutes, announceSeconds: configuration.race.announceSeconds)
        let log = self.log
        if let path = configuration.race.line {
            do throws(CommandError) {
                engine.startLine = try RaceCommand.startLine(from: path)
                log.info("race.line", "race: the start line from \(path)", [("path", path)])
            } catch {
                log.warning("race.line", "\(error); ping the ends instead", [("path", path)])
            }
        }
        voice = configuration.voice.map { Voice(settings: $0, log: log) }
        recorder = try configuration.record.map { settings throws(POSIX.Failure) in try Recorder(settings: settings) }
        if let settings = configuration.record {
            log.notice(
                "record.start", "recording every input sentence to \(settings.directory)",
                [("path", settings.directory)])
        }
        var endpoints: [SourceID: Endpoint] = [:]
        for input in configuration.inputs {
            guard let transport = try Transports.input(input, log: log) else { continue }
            let source = engine.source(named: input.name)
            endpoints[source] = input.endpoint
            inputs.append((transport, source, input.name))
        }
        if let imu = configuration.imu, let transport = Transports.imu(imu, log: log) {
            inputs.append((transport, engine.source(named: "imu"), "imu"))
        }
        if let button = configuration.race.button {
            inputs.append(
                (GPIOButton(chip: button.chip, line: button.line, log: log), engine.source(named: "button"), "button"))
        }
        for output in configuration.outputs {
            guard let transport = try Transports.output(output, log: log) else { continue }
            outputs.append(Output(configuration: output, kinds: configuration.kinds(of: output), transport: transport))
        }
        if let path = configuration.route {
            var file = RouteFile(path: path)
            do {
                let route = try file.load()
                engine.follow(route)
                log.notice(
                    "route.loaded", "route: following \(route.name ?? path) (\(route.waypoints.count) waypoints)",
                    [("path", path)])
            } catch {
                log.error("route.unreadable", "route: \(error)", [("path", path)])
            }
            routeFile = file
        }
        router = Router(
            engine: engine,
            outputs: outputs.map { output in
                output.policy(excluded: Set(endpoints.filter { $0.value == output.configuration.endpoint }.keys))
            })
        webUpdateRate = configuration.web?.updateRate ?? 1
        if let (server, model) = try Runtime.makeWeb(configuration.web, log: log) {
            web = server
            signalK = model
            let heel = configuration.engine.heelAlarms
            signalK?.setHeelAlarm(over: heel.overHeel, under: heel.underHeel)
            router.observes = true
        }
    }

    /// Runs until SIGINT/SIGTERM (or `StopSignal.raise()`), `duration` seconds when given, or, with
    /// `untilInputsEnd`, one second after the last finite input has played its last sentence (a replay to outputs).
    public func run(duration: Double? = nil, untilInputsEnd: Bool = false) {
        let start = POSIX.monotonic()
        startTime = start
        let unix = POSIX.unixTime()
        router.withEngine { $0.setClock(unixTime: unix, at: 0) }
        unixOffset = unix - start
        for input in inputs { input.transport.start(at: start) }
        let tickInterval = 1 / configuration.tickRate
        var nextTick = start
        var nextHousekeeping = start + 1
        var fds: [pollfd] = []
        fds.reserveCapacity(64)
        let showStatus = configuration.statusLine && POSIX.isTerminal(2)
        var endedAt: Double?
        let systemd =
            configuration.systemdNotify.map { SystemdNotifier(socketPath: $0.socket, watchdogUsec: $0.watchdogUsec) }
            ?? SystemdNotifier()
        systemd?.send("READY=1\nSTATUS=serving")
        // Clients already waiting are accepted before the first sentence goes out.
        serviceOutputs(now: start)
        while !StopSignal.isRaised {
            let now = POSIX.monotonic()
            if let duration, now - start >= duration { break }
            if untilInputsEnd && fileInputsFinished {
                if let endedAt, now - endedAt > 1 { break }
                if endedAt == nil { endedAt = now }
            }
            systemd?.keepAlive(now: now)
            if now >= nextTick {
                tickLateness.record(now - nextTick)
                router.tick(at: now - start) { action in self.perform(action, now: now) }
                webTick(now: now)
                for notice in router.withEngine({ $0.takeNotices() }) { log.notice("engine.notice", notice) }
                for announcement in router.withEngine({ $0.takeAnnouncements() }) {
                    log.info("voice.announce", "announce: \(announcement.text)", [("text", announcement.text)])
                    voice?.say(announcement.text, at: now)
                }
                nextTick += tickInterval
                // After a stall, keep the phase rather than burst.
                if nextTick < now { nextTick = now + tickInterval }
            }
            if now >= nextHousekeeping {
                nextHousekeeping += 1
                housekeeping(at: now)
                if showStatus { status.show(statusLine(at: now - start)) }
            }
            var wake = min(nextTick, nextHousekeeping)
            fds.removeAll(keepingCapacity: true)
            var nextInputDue = Double.infinity
            for input in inputs {
                input.transport.prepare(now: now, into: &fds)
                if let due = input.transport.nextDue(now: now) { nextInputDue = min(nextInputDue, due) }
            }
            wake = min(wake, nextInputDue)
            inputDescriptors.removeAll(keepingCapacity: true)
            inputDescriptors.append(contentsOf: fds)
            for output in outputs { output.transport.pollDescriptors(into: &fds) }
            web?.pollDescriptors(into: &fds)
            // Stream work the tick left (it stopped for an input) goes on in the next turn, without waiting.
            let unfinished = web?.hasUnfinishedRounds == true
            _ = POSIX.poll(&fds, seconds: unfinished ? 0 : min(0.1, wake - POSIX.monotonic()))
            let afterPoll = POSIX.monotonic()
            for input in inputs {
                input.transport.service(now: afterPoll, polled: fds) { event in
                    self.handle(event, from: input.source, name: input.name, at: afterPoll)
                }
            }
            serviceOutputs(now: afterPoll)
            serviceWeb(now: afterPoll, inputsDue: min(nextTick, nextInputDue))
            voice?.service(now: afterPoll)
        }
        systemd?.send("STOPPING=1")
        stop(fds: &fds)
        status.finish()
        let p50 = TickLateness.milliseconds(tickLateness.percentile(0.5))
        let p99 = TickLateness.milliseconds(tickLateness.percentile(0.99))
        log(
            LogEvent(
                .notice, "stopped",
                "stopped: \(counters.sentencesIn) sentences in, \(counters.sentencesOut) out; "
                    + "tick lateness p50 \(p50) ms, p99 \(p99) ms",
                [("in", "\(counters.sentencesIn)"), ("out", "\(counters.sentencesOut)"), ("tick_p99_ms", p99)],
                throttled: false))
    }

    /// Flushes what is queued for at most a second, then closes inputs and outputs, last opened first.
    private func stop(fds: inout [pollfd]) {
        let deadline = POSIX.monotonic() + 1
        while POSIX.monotonic() < deadline && outputs.contains(where: { $0.transport.hasPending }) {
            fds.removeAll(keepingCapacity: true)
            for output in outputs { output.transport.pollDescriptors(into: &fds) }
            _ = POSIX.poll(&fds, milliseconds: 50)
            serviceOutputs(now: POSIX.monotonic())
        }
        recorder?.flush()
        voice?.finish()
        web?.close()
        for input in inputs.reversed() { input.transport.close() }
    }

    /// The files the recorder wrote.
    public var recordedFiles: [String] { recorder?.files ?? [] }
}
