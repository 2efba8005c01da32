import Bridge
import Engine
import Router
import SignalK

/// The autopilots: every decision is the ``AutopilotDesk``'s; the runtime tells it what the bus and pypilot say, with
/// the engine's values and the time, and carries out what it decides (#41, #49).
extension Runtime {
    /// What the services hear of the pilots now.
    var heardPilots: AutopilotDesk.Heard {
        AutopilotDesk.Heard(
            bus: n2k?.pilots ?? PilotWatch(), pypilot: pypilot?.link, pypilotConnected: pypilot?.isConnected ?? false)
    }

    /// Once a second: the pilots listed, watched and refreshed; a tack's countdown ended; a wind mode's angle.
    func keepAutopilots(at now: Double) {
        for action in autopilot.second(heardPilots, values: lastReport?.values, at: now) { perform(action, at: now) }
    }

    /// A command from the Autopilot API for the pilot `device`: its status and words for the answer.
    func commandPilot(_ device: String, _ command: AutopilotCommand, at now: Double) -> (Int, String) {
        var (reply, actions) = autopilot.command(device, command, heardPilots, values: lastReport?.values, at: now)
        for action in actions { perform(action, at: now) }
        if case .advanceRoute(let device) = reply {
            let outcome = router.command(.route(.advance), at: engineTime(now))
            (reply, actions) = autopilot.routeAdvanced(outcome, device: device, heardPilots, at: now)
            for action in actions { perform(action, at: now) }
        }
        switch reply {
        case .answer(let status, let message): return (status, message)
        case .deliver(let delivery): return deliver(delivery, at: now)
        case .advanceRoute: return (500, "the route was already moved on")
        }
    }

    /// The messages written once (no retry: the pilot's own state coming back is the answer the panel waits for).
    @discardableResult
    private func deliver(_ delivery: AutopilotDesk.Delivery, at now: Double) -> (Int, String) {
        let sent: Bool
        switch delivery.messages {
        case .bus(let messages): sent = n2k?.command(messages, now: now) != nil
        case .pypilot(let lines): sent = pypilot?.send(lines, now: now) ?? false
        }
        let (status, message, actions) = autopilot.delivered(delivery, sent: sent, at: now)
        for action in actions { perform(action, at: now) }
        return (status, message)
    }

    private func perform(_ action: AutopilotDesk.Action, at now: Double) {
        switch action {
        case .deliver(let delivery): deliver(delivery, at: now)
        case .say(let text): say(text, at: now)
        case .log(let notice):
            let level: LogEvent.Level =
                switch notice.level {
                case .info: .info
                case .notice: .notice
                case .warning: .warning
                }
            log(LogEvent(level, notice.id, notice.text, [("pilot", notice.pilot)]))
        case .listed(let statuses): web?.setAutopilots(statuses)
        case .watch(let report): router.pilot(report)
        case .defaultPilot(let status):
            state?.feed.take(autopilot: status, at: engineTime(now), unixTime: unixTime(at: now))
        }
    }

    /// Said aloud (with `[voice]`) and in the log, as the engine's announcements are.
    func say(_ text: String, at now: Double) {
        // Never held back: what was said aloud is always in the log.
        log(LogEvent(.info, "voice.announce", "announce: \(text)", [("text", text)], throttled: false))
        voice?.say(text, at: now)
    }
}
