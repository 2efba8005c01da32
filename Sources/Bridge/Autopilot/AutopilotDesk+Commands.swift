import Engine

/// A command from the Autopilot API: what it means for the pilot it names, and its answer (200 sent, 404 not heard,
/// 409 what this pilot or this moment cannot do, 503 the bus or pypilot cannot take it now).
extension AutopilotDesk {
    /// `command` for the pilot `device`, with the engine's `values` now (for a tack's plan and the wind mode's angle).
    /// The actions are carried out before the reply (a turn called off is said first).
    public mutating func command(
        _ device: String, _ command: AutopilotCommand, _ heard: Heard, values: InstrumentValues?, at now: Double
    ) -> (Reply, [Action]) {
        var out: [Action] = []
        if case .makeDefault = command {
            chosenDefault = device
            list(heard, at: now, &out)
            out.append(
                .log(
                    Notice(
                        level: .notice, id: "autopilot.default", text: "autopilot: \(device) is the default pilot",
                        pilot: device)))
            return (.answer(200, "\(device) is the default pilot"), out)
        }
        if device.hasPrefix("nmea0183-") {
            return (sentencePilot(String(device.dropFirst(9)), command, following: values?.navigationLeg != nil), out)
        }
        guard let pilot = Self.liveStatus(device, heard, at: now) else {
            return (.answer(404, "no such autopilot heard"), out)
        }
        guard pilot.state != "off-line" else {
            return (
                .answer(409, "\(device) is off-line (not heard for \(Int(PilotWatch.offlineAfter)) s): nothing sent"),
                out
            )
        }
        // A tack or gybe counting down is called off by any other command to the pilot (standby above all).
        if let pending = pendingTurn, pending.delivery.device == device {
            pendingTurn = nil
            out.append(.say(pending.delivery.words + " called off"))
        }
        if case .courseNextPoint = command {
            guard values?.navigationLeg != nil else {
                return (.answer(409, "no route or destination is followed: set one first"), out)
            }
            return (.advanceRoute(device: device), out)
        }
        switch orders(pilot, command, values: values, &out) {
        case .success(let orders): return (deliver(orders, command, pilot, heard, values: values, at: now, &out), out)
        case .failure(let refusal): return (.answer(409, refusal.message), out)
        }
    }

    /// The route moved on (``Reply/advanceRoute(device:)``): for a pilot that is heard, route mode engaged; for an 0183
    /// pilot, the answer.
    public mutating func routeAdvanced(
        _ outcome: CommandOutcome, device: String, _ heard: Heard, at now: Double
    ) -> (Reply, [Action]) {
        var out: [Action] = []
        guard outcome.isDone else {
            return (.answer(409, outcome.message), out)
        }
        if device.hasPrefix("nmea0183-") {
            let output = String(device.dropFirst(9))
            out.append(
                .log(
                    Notice(
                        level: .notice, id: "autopilot.command",
                        text: "autopilot: \(device) on to the next point: \(outcome.message)", pilot: device)))
            return (.answer(200, "the route's next point: the pilot on \(output) is sent APB/RMB/XTE to it"), out)
        }
        guard let pilot = Self.liveStatus(device, heard, at: now) else {
            return (.answer(404, "no such autopilot heard"), out)
        }
        return (deliver([.engage(mode: "route")], .courseNextPoint, pilot, heard, values: nil, at: now, &out), out)
    }

    /// The shell's word on a ``Delivery``: whether it went. The answer for a command; for a tack or the wind mode's
    /// angle, what is said.
    public mutating func delivered(_ delivery: Delivery, sent: Bool, at now: Double) -> (
        status: Int, message: String, actions: [Action]
    ) {
        var out: [Action] = []
        let device = delivery.device
        let pypilot: Bool
        let count: Int
        switch delivery.messages {
        case .bus(let messages):
            pypilot = false
            count = messages.count
        case .pypilot(let lines):
            pypilot = true
            count = lines.count
        }
        guard sent else {
            if case .turn = delivery.reason { out.append(.say(delivery.words + ": not sent")) }
            if pypilot { return (503, "pypilot is not connected: not sent", out) }
            out.append(
                .log(
                    Notice(
                        level: .warning, id: "autopilot.unsent",
                        text: "autopilot: \(device) \(delivery.words): the bus cannot take it now (no address held, "
                            + "or the bus is down)", pilot: device)))
            return (
                503, "the NMEA 2000 bus cannot take it now (no address held yet, or the bus is down): not sent", out
            )
        }
        if delivery.standby { standbyAsked[device] = now }
        if delivery.windTarget { windTargetDue = (device, now + settings.windTargetWait) }
        let unit = pypilot ? "line(s)" : "message(s)"
        out.append(
            .log(
                Notice(
                    level: .notice, id: "autopilot.command",
                    text: "autopilot: \(device) \(delivery.words): \(count) \(unit) sent", pilot: device)))
        if case .windTarget(let trueAngle, let apparent) = delivery.reason {
            out.append(
                .say(
                    "wind mode, \(Int(abs(trueAngle).rounded())) degrees true on the polar, "
                        + "\(Int(abs(apparent).rounded())) apparent"))
        }
        return (200, "sent to \(device): \(delivery.words)", out)
    }

    /// Orders the pilot can take whole, as its messages: a tack or gybe held for its countdown (said now), the rest
    /// to be sent at once.
    private mutating func deliver(
        _ orders: [PilotCommander.Order], _ command: AutopilotCommand, _ pilot: AutopilotStatus, _ heard: Heard,
        values: InstrumentValues?, at now: Double, _ out: inout [Action]
    ) -> Reply {
        var delivery: Delivery
        switch Self.delivery(orders, for: pilot.id, words: command.words, heard) {
        case .success(let made): delivery = made
        case .failure(let refusal): return .answer(409, refusal.message)
        }
        delivery.standby = orders.contains(.standby)
        var turning: String?
        switch command {
        case .tack(let port): turning = "tacking to " + (port ? "port" : "starboard")
        case .gybe(let port): turning = "gybing to " + (port ? "port" : "starboard")
        default: break
        }
        if let words = turning {
            // Said before it happens, so the crew can mind the sheets and the boom; sent when the countdown ends.
            delivery.words = words
            delivery.reason = .turn
            pendingTurn = PendingTurn(delivery: delivery, due: now + settings.turnWarning)
            let seconds = Int(settings.turnWarning)
            out.append(.say("\(words) in \(seconds) seconds"))
            return .answer(200, "\(words) in \(seconds) s (any command to the pilot before then calls it off)")
        }
        // Close-hauled or running: once the pilot says it is in wind mode, the polar's angle.
        if case .mode("wind") = command, let values, AutopilotTurn.windTarget(values) != nil {
            delivery.windTarget = true
        }
        return .deliver(delivery)
    }

    /// The orders as the pilot's own messages (its PGNs on the bus, or pypilot's lines); refused when any cannot be.
    static func delivery(
        _ orders: [PilotCommander.Order], for device: String, words: String, _ heard: Heard
    ) -> Result<Delivery, PilotCommander.Refusal> {
        if device == "pypilot" {
            guard let link = heard.pypilot else { return .failure(.cannot("no pypilot")) }
            var lines: [String] = []
            for order in orders {
                switch link.lines(order) {
                case .success(let more): lines += more
                case .failure(let refusal): return .failure(refusal)
                }
            }
            return .success(Delivery(device: device, messages: .pypilot(lines), words: words))
        }
        guard let pilot = heard.bus.pilot(named: device) else {
            return .failure(.cannot("no such autopilot on the bus"))
        }
        var messages: [N2KOutbound.Outgoing] = []
        for order in orders {
            switch PilotCommander.messages(order, for: pilot) {
            case .success(let more): messages += more
            case .failure(let refusal): return .failure(refusal)
            }
        }
        return .success(Delivery(device: device, messages: .bus(messages), words: words))
    }

    /// An NMEA 0183 pilot on an output: it steers by the APB, RMB and XTE (route) or the MWV (wind) it is sent and says
    /// nothing back, so the one thing asked of it here is the route's next point (the sentences then lead there);
    /// the rest is refused with why, and nothing is sent.
    func sentencePilot(_ output: String, _ command: AutopilotCommand, following: Bool) -> Reply {
        switch command {
        case .courseNextPoint:
            guard following else { return .answer(409, "no route is followed: set one first") }
            return .advanceRoute(device: "nmea0183-" + output)
        case .courseCurrentPoint:
            return .answer(
                409,
                following
                    ? "Telltale already sends the current point (APB/RMB/XTE) on \(output): engage the pilot's route "
                        + "(nav, track) mode at its own control"
                    : "no route is followed: set one, then engage the pilot's route mode at its own control")
        default:
            return .answer(
                409,
                "an NMEA 0183 pilot on \(output) steers by the route (APB, RMB, XTE) and the wind (MWV) Telltale sends "
                    + "it and says nothing back: it cannot be engaged, put in standby, given a target, a tack or a "
                    + "dodge from here; use its own control")
        }
    }
}
