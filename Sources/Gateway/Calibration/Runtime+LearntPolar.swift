import Engine
import Marine
import Platform
import Router
import SignalK

/// `/telltale/v1/calibration/polar`: the learnt polar against the configured one, for the settings page's plot (GET),
/// the crew choosing which the engine takes its targets and performance from (PUT `{"use": "learnt"}` or
/// `"configured"`, at once and kept across restarts); `/polar.csv` (the table OpenCPN and qtVlm read, as learnt) and
/// `/polar.pol` (Expedition's layout) to download.
extension Runtime {
    /// The engine's polar at start: the learnt one when the crew chose it and it is there.
    static func learntPolarChosen(_ configuration: GatewayConfiguration, log: Log) -> GatewayConfiguration {
        guard let state = configuration.stateFile else { return configuration }
        let folder = POSIX.folder(of: state)
        guard POSIX.exists(CalibrationService.polarChoice(stateFolder: folder)) else { return configuration }
        guard let learnt = try? PolarFile.load(CalibrationService.learntPolar(stateFolder: folder)) else {
            log.warning(
                "calibration.polar", "calibration: the learnt polar chosen is not there; the configured one used")
            return configuration
        }
        var configuration = configuration
        configuration.engine.polar = CalibrationService.sailed(configured: configuration.engine.polar, learnt: learnt)
        log.info("calibration.polar", "calibration: targets and performance from the learnt polar")
        return configuration
    }

    func answerLearntPolar(_ ask: SignalKServer.JobAsk, _ calibration: CalibrationService)
        -> SignalKServer.ShellReply
    {
        switch (ask.rest, ask.method) {
        case ("/polar.csv", _):
            guard let bytes = try? POSIX.readFile(calibration.learntPolarPath, limit: 1 << 20) else {
                return .message(status: 404, "no polar learnt yet")
            }
            return .file(status: 200, contentType: "text/csv; charset=utf-8", body: bytes)
        case ("/polar.pol", _):
            guard let learnt = calibration.learntPolar else { return .message(status: 404, "no polar learnt yet") }
            return .file(status: 200, contentType: "text/plain; charset=utf-8", body: Array(learnt.expeditionText.utf8))
        case ("/polar", "PUT"):
            guard let body = JSONValue.parse(String(decoding: ask.body, as: UTF8.self)),
                let use = body["use"]?.string, use == "learnt" || use == "configured"
            else { return .message(status: 400, #"say {"use": "learnt"} or {"use": "configured"}"#) }
            let chosen = calibration.choosePolar(learnt: use == "learnt")
            if let refused = chosen.refused { return .message(status: 409, refused) }
            router.setPolar(chosen.polar)
            log.notice(
                "calibration.polar",
                "calibration: targets and performance from the \(use == "learnt" ? "learnt" : "configured") polar")
            return .json(status: 200, learntPolarJSON(calibration))
        default:
            return .json(status: 200, learntPolarJSON(calibration))
        }
    }

    /// Both polars on the learnt table's grid (speeds in knots, null where a polar has none), and which is used.
    func learntPolarJSON(_ calibration: CalibrationService) -> String {
        let learnt = calibration.learntPolar
        var out = JSONWriter()
        out.beginObject()
        out.value("use", calibration.usesLearntPolar ? "learnt" : "configured")
        out.value("learnt_ready", learnt != nil)
        out.value("configured_ready", calibration.configuredPolar != nil)
        out.beginArray("tws")
        for tws in LearntPolar.windSpeeds { out.value(nil, tws) }
        out.endArray()
        out.beginArray("twa")
        for twa in LearntPolar.angles { out.value(nil, twa) }
        out.endArray()
        for (name, polar) in [("configured", calibration.configuredPolar), ("learnt", learnt)] {
            out.beginArray(name)
            for tws in LearntPolar.windSpeeds {
                let curve = polar?.curves.first { $0.windSpeed == tws }
                out.beginArray(nil)
                for twa in LearntPolar.angles {
                    if name == "learnt" {
                        // The learnt table's own cells: a value only where the boat sailed.
                        let index = curve?.angles.firstIndex(of: twa)
                        out.value(nil, index.map { curve!.speeds[$0] })
                    } else {
                        out.value(nil, polar.map { $0.speed(angle: twa, windSpeed: tws) })
                    }
                }
                out.endArray()
            }
            out.endArray()
        }
        out.endObject()
        return out.text
    }
}
