import Engine
import Platform
import Router
import SignalK

/// The web requests only the shell can answer: the engine's commands (through the router), the settings, the crew's
/// files on the card (``Library``), the bus's listing, the autopilots.
extension Runtime {
    /// A web request only the shell can answer, answered; then any the answer let the client send.
    func answer(_ request: SignalKServer.ShellRequest) {
        guard let web else { return }
        let now = turn.now
        let reply: SignalKServer.ShellReply
        switch request.kind {
        case .command(let command):
            reply = .outcome(carryOut(command, at: now))
        case .settings(let kind):
            let answer = answerSettings(kind, at: now)
            reply = .json(status: answer.status, answer.json)
        case .chart, .upload, .resource:
            reply =
                library.answer(request.kind, now: now, unixTime: turn.unixTime)
                ?? .message(status: 404, "not found")
        case .bus:
            reply =
                if let n2k {
                    .json(status: 200, n2k.listing(now: now, sources: bus.byDevice))
                } else {
                    .message(status: 404, "no NMEA 2000 bus: [n2k] is not configured")
                }
        case .course(let target):
            switch library.resources.command(target) {
            case .success(let command): reply = .outcome(carryOut(command, at: now))
            case .failure(let error): reply = .message(status: 404, error.message)
            }
        case .history(let asked):
            reply = library.answerHistory(asked, own: state.map { "vessels." + $0.model.urn })
        case .autopilot(let device, let command):
            let (status, message) = commandPilot(device, command, at: now)
            reply = .message(status: status, message)
        case .fleet, .login:
            reply = .message(status: 404, "not a fleet's server")
        case .tides(let asked):
            reply = answerTides(asked)
        case .routing(let asked):
            reply = answerRouting(asked)
        case .calibration(let asked):
            reply = answerCalibration(asked, at: now)
        case .keepAccess(let text):
            return web.keepAccess(text)
        }
        web.answer(request.id, reply, now: now, unixTime: turn.unixTime)
        // A history query's buckets and answer are freed once sent: their pages given back, not kept resident. So are
        // the base map's bins and the gazetteer's places (copied out of their mappings for the answer).
        if case .history = request.kind { POSIX.trimHeap() }
        if case .chart(let kind) = request.kind {
            switch kind {
            case .baseMap, .places: POSIX.trimHeap()
            case .list, .tile: break
            }
        }
        while let next = web.takeRequest() { answer(next) }
    }

    /// A crew's command (from a Signal K client or the panel), carried out through the router at `now`, logged.
    func carryOut(_ command: EngineCommand, at now: Double) -> CommandOutcome {
        let outcome = router.command(command, at: engineTime(now))
        // One log id a kind of command (`web.command.route-advance`): one of another kind just after is said at once.
        let id = "web.command." + String(command.kind.map { $0 == " " ? "-" : $0 })
        log.notice(id, "web: \(outcome.message)" + (outcome.isDone ? "" : " (refused)"), [("command", command.words)])
        return outcome
    }
}
