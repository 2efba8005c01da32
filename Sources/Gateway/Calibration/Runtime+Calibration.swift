import Engine
import Marine
import Platform
import Router
import SignalK

/// The calibration learnt from sailing, on board: the file the engine applies (`[calibration] file`, else
/// `calibration.toml` beside the state file) read at start, and `/telltale/v1/calibration`: what is applied and the
/// last report (GET), learning from the history in its own process (POST), the learnt calibration applied (PUT) or
/// the applied one taken off (DELETE), each given to the engine at once (no restart); with `[calibration] auto`, it
/// learns and applies by itself.
extension Runtime {
    /// The calibration file the engine applies: the configured one, else the one beside the state file.
    static func calibrationPath(_ configuration: GatewayConfiguration) -> String? {
        configuration.calibrationFile ?? configuration.stateFile.map { POSIX.folder(of: $0) + "/calibration.toml" }
    }

    /// The configuration with the calibration beside the state file applied, when one is there and none is
    /// configured (a configured one was read with the configuration); a broken file is said and left off.
    static func sailingCalibrated(_ configuration: GatewayConfiguration, log: Log) -> GatewayConfiguration {
        var configuration = learntPolarChosen(configuration, log: log)
        if let problem = configuration.calibrationUnreadable {
            log.warning("calibration.unreadable", "calibration: \(problem); the wind and the log run uncalibrated")
        }
        guard configuration.calibrationFile == nil, let path = calibrationPath(configuration), POSIX.exists(path)
        else { return configuration }
        do {
            configuration.engine.wind.calibration = try CalibrationFile.load(path)
            log.info("calibration.loaded", "calibration: applied from \(path)", [("path", path)])
        } catch {
            log.warning("calibration.unreadable", "calibration: \(error); the wind and the log run uncalibrated")
            configuration.calibrationUnreadable = "\(error)"
        }
        return configuration
    }

    /// The learner on board: with the history on (it learns from it) and a state folder.
    static func calibration(_ configuration: GatewayConfiguration, log: Log) -> CalibrationService? {
        guard configuration.history.enabled, let stateFile = configuration.stateFile,
            let applied = calibrationPath(configuration)
        else { return nil }
        let folder = POSIX.folder(of: stateFile)
        return CalibrationService(
            history: folder + "/history", stateFolder: folder, applied: applied, days: 30,
            current: configuration.engine.wind.calibration, auto: configuration.calibrationAuto,
            configuredPolar: configuration.polarPath.flatMap { try? PolarFile.load($0) },
            unreadable: configuration.calibrationUnreadable, log: log)
    }

    func answerCalibration(_ ask: SignalKServer.JobAsk, at now: Double) -> SignalKServer.ShellReply {
        guard let calibration = services.calibration else {
            return .message(status: 404, "calibration on board needs the history on and a state folder")
        }
        if !ask.rest.isEmpty { return answerLearntPolar(ask, calibration) }
        switch ask.method {
        case "POST":
            if let refused = calibration.start(now: now) { return .message(status: 409, refused) }
            return .json(status: 202, calibrationJSON(calibration))
        case "PUT", "DELETE":
            let at = turn.unixTime
            if let refused = ask.method == "PUT" ? calibration.apply(at: at) : calibration.undo(at: at) {
                return .message(status: 409, refused)
            }
            router.setCalibration(calibration.current)
            return .json(status: 200, calibrationJSON(calibration))
        default:
            return .json(status: 200, calibrationJSON(calibration))
        }
    }

    func calibrationJSON(_ calibration: CalibrationService) -> String {
        var out = JSONWriter()
        out.beginObject()
        switch calibration.state {
        case .idle: out.value("state", "idle")
        case .running: out.value("state", "learning")
        case .learnt(let json, let at):
            out.value("state", "learnt")
            out.value("at", SignalKTime.text(unixTime: at))
            out.raw("report", json)
        case .failed(let message, let at):
            out.value("state", "failed")
            out.value("at", SignalKTime.text(unixTime: at))
            out.value("message", message)
        }
        let applied = router.calibration
        out.beginObject("applied")
        out.value("awa_offset", applied.awaOffset)
        out.value("upwash_upwind", applied.upwashUpwind)
        out.value("upwash_downwind", applied.upwashDownwind)
        out.value("upwash_reach", applied.upwashReach)
        out.value("speed_factor", applied.speedFactor)
        out.value("speed_side", applied.speedSide)
        out.value("aws_factor", applied.awsFactor)
        out.beginArray("deviation")
        for term in applied.deviation.coefficients { out.value(nil, term) }
        out.endArray()
        out.value("leeway_coefficient", applied.leewayCoefficient)
        out.endObject()
        out.value("limited_seconds", router.calibrationLimitedSeconds)
        if let unreadable = calibration.unreadable { out.value("unreadable", unreadable) }
        out.value("file", calibration.applied)
        out.value("auto", calibration.auto != nil)
        if let auto = calibration.auto { out.value("auto_hours", auto.every / 3600) }
        if let done = calibration.autoApplied {
            out.beginObject("auto_applied")
            out.value("at", SignalKTime.text(unixTime: done.at))
            out.beginArray("changes")
            for change in done.changes { out.value(nil, change) }
            out.endArray()
            out.endObject()
        }
        if let held = calibration.autoHeld {
            out.beginObject("auto_held")
            out.value("at", SignalKTime.text(unixTime: held.at))
            out.value("why", held.why)
            out.endObject()
        }
        out.value("learnt_ready", POSIX.exists(calibration.learnt))
        out.value("undo_ready", POSIX.exists(calibration.applied))
        out.endObject()
        return out.text
    }
}
