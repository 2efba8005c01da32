import CPosix
import Engine
import Marine
import NMEA
import Platform
import Router
import SignalK

/// `telltale replay` to standard output, without its command-line library: logs read, engine built, replayed.
public enum ReplayCommand {
    /// The engine a replay runs: following `route`, with the start line from `line`, and the race timer's sequence
    /// started `raceStart` seconds after the log's first sentence (the engine's clock starts there in a replay).
    public static func engine(
        _ configuration: EngineConfiguration, route: String?, line: String?, race: RaceConfiguration = .init(),
        raceStart: Double? = nil
    ) throws(CommandError) -> Engine {
        var engine = Engine(configuration: configuration)
        if let route {
            var file = RouteFile(path: route)
            do { engine.follow(try file.load()) } catch { throw CommandError("\(error)") }
        }
        if let line { engine.startLine = try StartLineFile.load(line) }
        if let raceStart {
            engine.raceTimer = RaceTimer(sequenceMinutes: race.sequenceMinutes, announceSeconds: race.announceSeconds)
            engine.raceTimer.start(at: raceStart)
        }
        return engine
    }

    /// Replays the logs through the engine, handing each output line to `write`; the summary line for the log.
    public static func run(
        _ options: ReplayOptions, write: (UnsafeRawBufferPointer) -> Void
    ) throws(CommandError) -> String {
        try options.validate()
        var configuration = EngineConfiguration()
        var configuredRoute: String?
        var configuredLine: String?
        var configuredRace = RaceConfiguration()
        var web = WebConfiguration()
        var refusal: CommandError?
        if let config = options.config {
            do {
                let file = try ConfigurationFile.load(path: config)
                refusal = Self.refusal(options, of: file)
                configuration = file.engine
                configuration.kinds = ComputedKind.standard
                configuredRoute = file.route
                configuredLine = file.race.line
                configuredRace = file.race
                if let settings = file.web { web = settings }
            } catch {
                throw CommandError("\(config): \(error)")
            }
            if let refusal { throw refusal }
        }
        if let calibration = try Self.calibration(options) { configuration.wind.calibration = calibration }
        // Nothing a replay prints can come back into it.
        configuration.echoWindow = 0
        if !options.kinds.isEmpty { configuration.kinds = Set(options.kinds.compactMap(ComputedKind.named)) }
        var runnerOptions = ReplayRunner.Options()
        runnerOptions.speed = options.pace
        runnerOptions.computedOnly = options.computedOnly
        runnerOptions.tagTime = options.tagTime
        runnerOptions.lineRate = options.lineRate
        runnerOptions.tickRate = options.tickRate
        if let drop = options.anchorDrop {
            runnerOptions.commands.append(ReplaySession.ScheduledCommand(at: drop, .anchor(.drop(radius: nil))))
        }
        var deltaFile: Int32?
        if let path = options.signalK {
            do {
                deltaFile = try POSIX.open(path, O_WRONLY | O_CREAT | O_TRUNC, operation: "cannot create")
            } catch {
                throw CommandError("\(error)")
            }
            // A replay's identity does not depend on the machine: the same file, the same deltas.
            runnerOptions.signalK = SignalKModel(
                urn: web.urn ?? SignalKModel.urn(seed: "telltale replay"), name: web.name)
            runnerOptions.signalKRate = web.updateRate
        }
        defer { if let deltaFile { POSIX.close(deltaFile) } }
        let recorded = try logs(options)
        var engine = try Self.engine(
            configuration, route: options.route ?? configuredRoute, line: configuredLine, race: configuredRace,
            raceStart: options.raceStart)
        let grids = try forecasts(options.forecasts)
        if !grids.isEmpty { engine.setForecast(Forecast(grids: grids)) }
        var imuFile: IMUFile?
        if let imu = options.imu {
            do { imuFile = try IMUFile.read(imu) } catch { throw CommandError("\(error)") }
        }
        let result = ReplayRunner(engine: engine, options: runnerOptions).run(
            recorded, imu: imuFile, write: write,
            writeDeltas: { bytes in if let deltaFile { POSIX.writeAll(deltaFile, bytes) } })
        return summary(result)
    }

    /// Each log, as a recorded bus or an 0183 log.
    static func logs(_ options: ReplayOptions) throws(CommandError) -> [any ReplayLog] {
        var recorded: [any ReplayLog] = []
        for (index, log) in options.logs.enumerated() {
            do {
                if N2KRecordingStream.isBus(log) {
                    recorded.append(
                        try N2KRecordingStream(path: log, prefix: "log\(index)", lineRate: options.lineRate))
                } else {
                    recorded.append(try RecordingStream(path: log, index: index, lineRate: options.lineRate))
                }
            } catch {
                throw CommandError("\(error)")
            }
        }
        return recorded
    }

    /// The forecast grids given, each opened as the gateway opens them.
    static func forecasts(_ paths: [String]) throws(CommandError) -> [ForecastGrid] {
        var grids: [ForecastGrid] = []
        for path in paths {
            do throws(WeatherLibrary.LoadError) { grids.append(try WeatherLibrary.open(path)) } catch {
                throw CommandError("\(path): \(error)", status: 65)
            }
        }
        return grids
    }

    /// The replay's summary line, and one line for each command it carried out.
    static func summary(_ result: ReplayRunner.Result) -> String {
        let s = result.summary
        var summary = "replay: \(result.sentencesRead) sentences read, \(s.passedThrough) passed through, "
        summary += "\(s.computed) computed over \(FixedDecimal.text(s.duration, decimals: 1)) s of log time"
        if s.invalid > s.implausible { summary += ", \(s.invalid - s.implausible) with unreadable fields" }
        if s.implausible > 0 { summary += ", \(s.implausible) implausible (values out of physical range)" }
        if s.calibrationLimited >= 1 {
            summary += ", the calibration applied only in part for \(Int(s.calibrationLimited)) s (all of it over 12°)"
        }
        if result.timeGlitches > 0 {
            summary += ", \(result.timeGlitches) times out of line with the log's clock left out"
        }
        if result.imuTimeGlitches > 0 {
            summary += ", \(result.imuTimeGlitches) IMU samples out of line with its clock left out"
        }
        if s.gaps > 0 {
            summary += ", \(s.gaps) gaps over \(Int(ReplaySession.gapLimit / 60)) min skipped"
            summary += " (\(FixedDecimal.text(s.skipped / 3600, decimals: 1)) h of log time with nothing in it)"
        }
        if s.echoes > 0 { summary += ", \(s.echoes) own sentences ignored" }
        if s.shortened > 0 { summary += ", \(s.shortened) over 82 bytes shortened" }
        if s.tooLong > 0 { summary += ", \(s.tooLong) over 82 bytes dropped" }
        if result.rejects.total > 0 {
            let reasons = RejectReason.allCases.filter { result.rejects[$0] > 0 }.map {
                "\($0.name) \(result.rejects[$0])"
            }
            summary += "; rejected: " + reasons.joined(separator: ", ")
        }
        for command in s.commands {
            summary += "\nreplay: at \(FixedDecimal.text(command.time, decimals: 1)) s, "
            summary += (command.outcome.isDone ? "" : "refused: ") + command.outcome.message
        }
        return summary
    }
}
