import CPosix
import Engine
import Marine
import NMEA
import Platform
import Router

/// `telltale run`: inputs into the engine, the engine's ticks and the inputs' pass-through out to the outputs.
///
/// One thread, one `poll` loop: file inputs are played on their own clock, the engine ticks at its fixed rate,
/// TCP clients are served without blocking, and SIGINT/SIGTERM end the loop, outputs flushed, within a second.
public final class Runtime {
    public struct Counters: Sendable {
        public var sentencesIn = 0
        /// Lines refused while framing network inputs.
        public var rejected = 0
        public var sentencesOut = 0
        public var routeReloads = 0
    }

    /// How late engine ticks ran against their schedule, in 0.1 ms bins up to 100 ms (the last bin holds the rest):
    /// fixed storage, nothing allocated on the tick path.
    public private(set) var tickLateness = [Int](repeating: 0, count: 1001)

    /// The lateness (seconds) below which `fraction` of the ticks ran.
    public func tickLatenessPercentile(_ fraction: Double) -> Double {
        let total = tickLateness.reduce(0, +)
        guard total > 0 else { return 0 }
        var seen = 0
        for (bin, count) in tickLateness.enumerated() {
            seen += count
            if Double(seen) >= fraction * Double(total) { return Double(bin + 1) / 10_000 }
        }
        return 0.1
    }

    public let configuration: GatewayConfiguration
    public private(set) var counters = Counters()
    /// The routing policy and the engine it owns: every sentence in and out goes through it.
    public private(set) var router: Router
    public var engine: Engine { router.engine }
    /// The port each TCP output listens on (useful when configured as 0).
    public private(set) var tcpPorts: [String: Int] = [:]
    private var fileInputs: [(input: FileInput, source: SourceID)] = []
    private var networkInputs: [(input: NetworkInput, source: SourceID)] = []
    private var gpsdInputs: [(input: GPSDClient, source: SourceID)] = []
    private var serialInputs: [(input: SerialInput, source: SourceID)] = []
    private var outputs: [OutputSink] = []
    private var routeFile: RouteFile?
    private var recorder: Recorder?
    /// Sentences per input.
    private var perSource: [SourceID: Int] = [:]
    /// Sentences per input with a value that cannot be true.
    private var implausiblePerSource: [SourceID: Int] = [:]
    private var lastSummary = POSIX.monotonic()
    /// The monotonic time the loop started: the engine's time zero.
    private var startTime = 0.0
    private var imuInput: CSVIMUInput?
    private var liveIMU: LiveIMUInput?
    /// One sentence's bytes on their way to an output (reused: nothing allocated per sentence).
    private var wire: [UInt8] = []
    private var imuSource = SourceID(0)
    private var inputNames: [SourceID: String] = [:]
    /// Where each input reads, so that pass-through never goes back out to the same device or address.
    private var inputEndpoints: [SourceID: Endpoint] = [:]
    /// UNIX seconds minus the runtime's monotonic clock: receive times for the recorder.
    private var unixOffset = 0.0
    private let log: (String) -> Void

    public init(configuration: GatewayConfiguration, log: @escaping (String) -> Void) throws(POSIX.Failure) {
        // Every message goes through the limiter: a device that fails every second does not flood the journal.
        var limiter = LogLimiter()
        self.log = { message in
            if let admitted = limiter.admit(message, at: POSIX.monotonic()) { log(admitted) }
        }
        let log = self.log
        // What calibration learnt, for the IMU it was made with.
        var configuration = configuration
        if let path = configuration.stateFile, configuration.imu != nil {
            do {
                if let message = try StateFile.load(path).apply(to: &configuration) { log(message) }
            } catch {
                log("state: \(error); the IMU runs uncalibrated")
            }
        }
        self.configuration = configuration
        var engine = Engine(configuration: configuration.engine)
        if let settings = configuration.record {
            recorder = try Recorder(settings: settings)
            log("recording every input sentence to \(settings.directory)")
        }
        for input in configuration.inputs {
            let source = engine.source(named: input.name)
            inputNames[source] = input.name
            inputEndpoints[source] = input.endpoint
            switch input.endpoint {
            case .file(let path):
                fileInputs.append((try FileInput(configuration: input, path: path), source))
            case .tcp(let host, let port):
                networkInputs.append(
                    (
                        NetworkInput(
                            name: input.name, kind: .tcpClient(host: host, port: port), framing: input.framing, log: log
                        ),
                        source
                    ))
            case .gpsd(let host, let port):
                gpsdInputs.append((GPSDClient(name: input.name, host: host, port: port, log: log), source))
            case .serial(let path, let baud):
                serialInputs.append(
                    (SerialInput(name: input.name, path: path, baud: baud, framing: input.framing, log: log), source))
            case .udp(let host, let port):
                networkInputs.append(
                    (
                        NetworkInput(
                            name: input.name, kind: .udpListener(host: host, port: port), framing: input.framing,
                            log: log),
                        source
                    ))
            default:
                log("input \(input.name): \(input.endpoint) is not supported by this build yet; skipped")
            }
        }
        for output in configuration.outputs {
            switch output.endpoint {
            case .tcp(let host, let port):
                let server = try TCPServer(
                    host: host, port: port, bufferLimit: output.clientBuffer, maximumClients: output.maximumClients)
                tcpPorts[output.name] = server.port
                outputs.append(
                    OutputSink(
                        configuration: output, kinds: configuration.kinds(of: output), kind: .tcp(server), log: log))
                log("output \(output.name): serving on tcp://\(host):\(server.port)")
            case .udp(let host, let port):
                outputs.append(
                    OutputSink(
                        configuration: output, kinds: configuration.kinds(of: output),
                        kind: .udp(try UDPSender(host: host, port: port)), log: log))
            case .standardOutput:
                outputs.append(
                    OutputSink(
                        configuration: output, kinds: configuration.kinds(of: output), kind: .standardOutput, log: log))
            case .serial(let path, let baud):
                outputs.append(
                    OutputSink(
                        configuration: output, kinds: configuration.kinds(of: output),
                        kind: .serial(SerialOutput(path: path, baud: baud)), log: log))
            default:
                log("output \(output.name): \(output.endpoint) is not supported by this build yet; skipped")
            }
        }
        if let imu = configuration.imu {
            imuSource = engine.source(named: "imu")
            if case .csv = imu.source {
                do {
                    imuInput = try CSVIMUInput(configuration: imu)
                    log("imu: \(imu.endpoint), axes \(imu.axes)")
                } catch {
                    log("imu: \(error)")
                }
            } else {
                // Opened in the loop, and again whenever it fails: a missing IMU does not stop the gateway.
                liveIMU = LiveIMUInput(configuration: imu, log: log)
                liveIMU?.prepare(now: POSIX.monotonic())
            }
        }
        if let path = configuration.route {
            var file = RouteFile(path: path)
            do {
                let route = try file.load()
                engine.follow(route)
                log("route: following \(route.name ?? path) (\(route.waypoints.count) waypoints)")
            } catch {
                log("route: \(error)")
            }
            routeFile = file
        }
        var policies: [OutputPolicy] = []
        for sink in outputs {
            let output = sink.configuration
            var policy = OutputPolicy(name: output.name)
            policy.computed = output.computed
            policy.kinds = sink.kinds
            policy.passThrough = output.passThrough
            // Pass-through never goes back to the device or address it came from.
            policy.excludedSources = Set(inputEndpoints.filter { $0.value == output.endpoint }.map { $0.key })
            policy.filter = AddressFilter(include: output.include, exclude: output.exclude)
            policy.talker = output.talker
            policy.rateLimits = output.rateLimits
            policy.attitudeNames = output.attitudeNames
            policy.attitudeDecimals = output.attitudeDecimals
            policy.dialect = output.dialect
            policies.append(policy)
        }
        router = Router(engine: engine, outputs: policies)
    }

    /// Whether every file input has played to its end (looping inputs never do).
    public var fileInputsFinished: Bool {
        !fileInputs.isEmpty && fileInputs.allSatisfy { $0.input.nextDue(since: 0) == nil }
    }

    /// Runs until SIGINT/SIGTERM (or `StopSignal.raise()`), `duration` seconds when given, or, with
    /// `untilInputsEnd`, one second after the last file input has played its last sentence (a replay to outputs).
    public func run(duration: Double? = nil, untilInputsEnd: Bool = false) {
        let start = POSIX.monotonic()
        startTime = start
        var unix = timespec()
        clock_gettime(CLOCK_REALTIME, &unix)
        router.withEngine { $0.setClock(unixTime: Double(unix.tv_sec) + Double(unix.tv_nsec) / 1e9, at: 0) }
        unixOffset = Double(unix.tv_sec) + Double(unix.tv_nsec) / 1e9 - start
        let tickInterval = 1 / configuration.tickRate
        var nextTick = start
        var nextHousekeeping = start + 1
        var fds: [pollfd] = []
        fds.reserveCapacity(64)
        let showStatus = configuration.statusLine && POSIX.isTerminal(2)

        var endedAt: Double?
        let systemd =
            configuration.systemdNotify.map {
                SystemdNotifier(socketPath: $0.socket, watchdogUsec: $0.watchdogUsec)
            } ?? SystemdNotifier()
        systemd?.send("READY=1\nSTATUS=serving")
        // Clients already waiting are accepted before the first sentence goes out.
        for output in outputs { output.service() }
        while !StopSignal.isRaised {
            let now = POSIX.monotonic()
            if let duration, now - start >= duration { break }
            if untilInputsEnd && fileInputsFinished {
                if let endedAt, now - endedAt > 1 { break }
                if endedAt == nil { endedAt = now }
            }
            let engineTime = now - start
            for index in fileInputs.indices {
                let source = fileInputs[index].source
                let lap = fileInputs[index].input.lap
                fileInputs[index].input.emitDue(at: now, since: start) { sentence in
                    self.handle(input: sentence, from: source, at: engineTime)
                }
                // A looping log starts its voyage again: so does the route.
                if fileInputs[index].input.lap != lap, let route = engine.route.route {
                    router.withEngine { $0.follow(route) }
                    log(
                        "input \(fileInputs[index].input.name): lap \(fileInputs[index].input.lap + 1), route restarted"
                    )
                }
            }
            // A CSV's samples are stamped when played, a live IMU's when read (or by the kernel's timestamps).
            imuInput?.emitDue(at: now, since: start) { sample in self.ingest(imu: sample, at: now, start: start) }
            liveIMU?.service(now: now) { sample in self.ingest(imu: sample, at: sample.time, start: start) }
            systemd?.keepAlive(now: now)
            if now >= nextTick {
                tickLateness[min(Int((now - nextTick) * 10_000), tickLateness.count - 1)] += 1
                router.tick(at: engineTime) { action in self.perform(action) }
                for notice in router.withEngine({ $0.takeNotices() }) { log(notice) }
                nextTick += tickInterval
                // After a stall, keep the phase rather than burst.
                if nextTick < now { nextTick = now + tickInterval }
            }
            if now >= nextHousekeeping {
                nextHousekeeping += 1
                housekeeping()
                if showStatus { POSIX.writeAll(2, "\r" + statusLine(at: now - start) + "\u{1B}[K") }
            }
            var wake = min(nextTick, nextHousekeeping)
            for item in fileInputs { if let due = item.input.nextDue(since: start) { wake = min(wake, due) } }
            if let due = imuInput?.nextDue(since: start) { wake = min(wake, due) }
            if let due = liveIMU?.nextDue(now: now) { wake = min(wake, due) }
            fds.removeAll(keepingCapacity: true)
            for item in networkInputs {
                item.input.maintain(now: now)
                item.input.pollDescriptors(into: &fds)
            }
            for item in gpsdInputs {
                item.input.maintain(now: now)
                if let fd = item.input.descriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            }
            var serialSlots: [Int?] = []
            for item in serialInputs {
                item.input.maintain(now: now)
                if let fd = item.input.descriptor {
                    serialSlots.append(fds.count)
                    fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
                } else {
                    serialSlots.append(nil)
                }
            }
            for output in outputs { output.pollDescriptors(into: &fds) }
            let timeout = Int32(max(0, min(100, (wake - POSIX.monotonic()) * 1000)).rounded(.up))
            _ = poll(&fds, nfds_t(fds.count), timeout)
            let afterPoll = POSIX.monotonic()
            for item in networkInputs {
                let source = item.source
                item.input.service(now: afterPoll) { event in
                    switch event {
                    case .sentence(let sentence): self.handle(input: sentence, from: source, at: afterPoll - start)
                    case .rejected: self.counters.rejected += 1
                    }
                }
            }
            for (index, item) in serialInputs.enumerated() {
                let source = item.source
                let revents = serialSlots[index].map { fds[$0].revents } ?? 0
                item.input.service(now: afterPoll, revents: revents) { event in
                    switch event {
                    case .sentence(let sentence): self.handle(input: sentence, from: source, at: afterPoll - start)
                    case .rejected: self.counters.rejected += 1
                    }
                }
            }
            for item in gpsdInputs {
                let source = item.source
                item.input.service(now: afterPoll) { fix in
                    self.counters.sentencesIn += 1
                    self.router.ingest(
                        fix: fix.point, speedOverGround: fix.speed, courseOverGround: fix.track, unixTime: fix.time,
                        from: source, at: afterPoll - start)
                }
            }
            for output in outputs { output.service() }
        }
        systemd?.send("STOPPING=1")
        // Flush what is queued, for at most a second.
        let deadline = POSIX.monotonic() + 1
        while POSIX.monotonic() < deadline && outputs.contains(where: { $0.hasPending }) {
            fds.removeAll(keepingCapacity: true)
            for output in outputs { output.pollDescriptors(into: &fds) }
            _ = poll(&fds, nfds_t(fds.count), 50)
            for output in outputs { output.service() }
        }
        recorder?.flush()
        if showStatus { POSIX.writeAll(2, "\n") }
        let p50 = Self.milliseconds(tickLatenessPercentile(0.5))
        let p99 = Self.milliseconds(tickLatenessPercentile(0.99))
        log(
            "stopped: \(counters.sentencesIn) sentences in, \(counters.sentencesOut) out; tick lateness p50 \(p50) ms, p99 \(p99) ms"
        )
    }

    /// Each TCP output's counts: clients accepted and dropped, sentences lost to slow clients.
    public var tcpStatistics: [String: TCPServer.Statistics] {
        var result: [String: TCPServer.Statistics] = [:]
        for output in outputs {
            if case .tcp(let server) = output.kind { result[output.configuration.name] = server.statistics }
        }
        return result
    }

    /// One IMU sample, body frame, taken at `time` on the monotonic clock: to the engine and the recorder.
    private func ingest(imu sample: IMUFile.Sample, at time: Double, start: Double) {
        router.ingest(
            gyroscope: sample.gyroscope, accelerometer: sample.accelerometer, magnetometer: sample.magnetometer,
            from: imuSource, at: time - start)
        recorder?.record(imu: sample, unixTime: time + unixOffset)
    }

    private func handle(input sentence: Sentence, from source: SourceID, at time: Double) {
        counters.sentencesIn += 1
        perSource[source, default: 0] += 1
        recorder?.record(sentence, source: inputNames[source] ?? "input", unixTime: POSIX.monotonic() + unixOffset)
        router.ingest(sentence, from: source, at: time) { action in perform(action) }
    }

    /// Carries out what the router decided.
    private func perform(_ action: Router.Action) {
        switch action {
        case .send(let index, let sentence, let computed):
            wire.removeAll(keepingCapacity: true)
            sentence.appendWire(to: &wire)
            wire.withUnsafeBytes { outputs[index].send($0, computed: computed) }
            counters.sentencesOut += 1
        case .refused(let sentence, let source, let error):
            // Counted by the router (unreadable, implausible); per input and in the log here.
            guard case .implausible(let quantity) = error else { return }
            implausiblePerSource[source, default: 0] += 1
            log(
                "input \(inputNames[source] ?? "?"): implausible \(quantity) (outside \(quantity.range.lowerBound)"
                    + "...\(quantity.range.upperBound) \(quantity.unit)) in \(sentence); not used, not passed on")
        }
    }

    /// The files the recorder wrote.
    public var recordedFiles: [String] { recorder?.files ?? [] }

    /// One line per input and output: what went through and what went wrong since the start.
    public func summary() -> String {
        var parts: [String] = []
        func implausible(_ source: SourceID) -> String {
            implausiblePerSource[source].map { ", \($0) implausible" } ?? ""
        }
        for item in fileInputs {
            parts.append("\(item.input.name): \(perSource[item.source] ?? 0) in" + implausible(item.source))
        }
        for item in networkInputs {
            let s = item.input.statistics
            parts.append(
                "\(item.input.name): \(perSource[item.source] ?? 0) in, \(item.input.framer.statistics.rejects.total) rejected, "
                    + "\(max(0, s.connects - 1)) reconnects" + implausible(item.source))
        }
        for item in serialInputs {
            parts.append(
                "\(item.input.name): \(perSource[item.source] ?? 0) in, \(item.input.framer.statistics.rejects.total) rejected, "
                    + "\(item.input.reconnects) reconnects" + implausible(item.source))
        }
        for item in gpsdInputs {
            parts.append("\(item.input.name): \(item.input.fixes) fixes, \(item.input.reconnects) reconnects")
        }
        if let liveIMU { parts.append(liveIMU.summary) }
        for (index, output) in outputs.enumerated() {
            var text = "\(output.configuration.name): \(output.sent) out"
            let limited = router.rateLimitedPerOutput[index]
            if limited > 0 { text += ", \(limited) rate-limited" }
            switch output.kind {
            case .tcp(let server):
                text +=
                    ", \(server.clientCount) clients, \(server.statistics.droppedSentences) dropped for slow clients"
            case .serial(let serial):
                text += ", \(serial.thinned) thinned to fit the line"
                if serial.lost > 0 { text += ", \(serial.lost) lost while the device was closed" }
            default:
                break
            }
            parts.append(text)
        }
        return "summary: " + parts.joined(separator: "; ")
            + "; \(router.counters.invalid) unreadable, \(router.counters.echoes) echoes"
    }

    private func housekeeping() {
        recorder?.flush()
        if let interval = configuration.summaryInterval, POSIX.monotonic() - lastSummary >= interval {
            lastSummary = POSIX.monotonic()
            log(summary())
        }
        guard var file = routeFile else { return }
        do {
            if let route = try file.reloadIfChanged() {
                router.withEngine { $0.replaceRoute(with: route) }
                counters.routeReloads += 1
                log("route: reloaded \(file.path), leg \(engine.route.leg + 1) of \(route.legCount)")
            }
        } catch {
            log("route: \(error); keeping the previous route")
        }
        routeFile = file
    }

    /// One line for the terminal: time, traffic, clients, wind, the next waypoint.
    func statusLine(at elapsed: Double) -> String {
        let v = engine.values
        var parts = ["telltale \(Int(elapsed))s", "in \(counters.sentencesIn)", "out \(counters.sentencesOut)"]
        let clients = outputs.reduce(0) { $0 + $1.clientCount }
        parts.append("\(clients) client" + (clients == 1 ? "" : "s"))
        if let wind = v.trueWind {
            parts.append(
                "TWA \(Int(wind.angle.rounded())) TWS \(Self.one(Units.knots(metresPerSecond: wind.speed))) kn")
        }
        if let heading = v.headingTrue { parts.append("HDG \(Int(heading.rounded()))") }
        if let nav = v.navigation {
            let side = nav.crossTrack > 0 ? "R" : "L"
            parts.append(
                "\(nav.destination.id) \(Self.two(nav.distanceToWaypoint / 1852)) NM XTE \(Int(abs(nav.crossTrack).rounded())) m \(side)"
            )
        }
        return parts.joined(separator: " | ")
    }

    static func milliseconds(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10_000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func one(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }

    static func two(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = abs(hundredths % 100)
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}

/// An output's sink: where its bytes go.
final class OutputSink {
    enum Kind {
        case tcp(TCPServer)
        case udp(UDPSender)
        case standardOutput
        case serial(SerialOutput)
    }

    let configuration: OutputConfiguration
    let kind: Kind
    /// The computed kinds this output carries (``GatewayConfiguration/kinds(of:)``).
    let kinds: Set<ComputedKind>
    private(set) var sent = 0
    private let log: (String) -> Void

    init(configuration: OutputConfiguration, kinds: Set<ComputedKind>, kind: Kind, log: @escaping (String) -> Void) {
        self.configuration = configuration
        self.kinds = kinds
        self.kind = kind
        self.log = log
    }

    func send(_ bytes: UnsafeRawBufferPointer, computed: Bool) {
        sent += 1
        switch kind {
        case .tcp(let server): server.send(bytes)
        case .udp(let sender): sender.send(bytes)
        case .standardOutput: POSIX.writeAll(1, bytes)
        case .serial(let serial): serial.send(bytes, computed: computed, now: POSIX.monotonic(), log: log)
        }
    }

    func pollDescriptors(into fds: inout [pollfd]) {
        if case .tcp(let server) = kind { server.pollDescriptors(into: &fds) }
    }

    func service() {
        if case .tcp(let server) = kind { server.service() }
    }

    var hasPending: Bool {
        if case .tcp(let server) = kind { return server.hasPending }
        return false
    }

    var clientCount: Int {
        if case .tcp(let server) = kind { return server.clientCount }
        return 0
    }
}
