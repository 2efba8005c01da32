import Bridge
import Engine
import Router
import SignalK

extension Runtime {
    /// The autopilots heard on the NMEA 2000 bus (#41), once a second: each to the Autopilot API, the default one under
    /// `steering.autopilot.*`; a pilot not heard for ten seconds is `off-line` (said in the log when it goes and comes
    /// back). Commands go through ``commandPilot(_:_:at:)``.
    func keepAutopilots(at now: Double) {
        let watch = n2k?.bus.pilots ?? PilotWatch()
        var statuses = watch.listed.map { pilot in
            let online = watch.isOnline(pilot.address, at: now)
            return AutopilotStatus(
                id: pilot.id, provider: "telltale-n2k",
                state: online ? pilot.state : "off-line", mode: pilot.mode, target: online ? pilot.target : nil,
                targetIsMagnetic: pilot.targetIsMagnetic, engaged: online ? pilot.engaged : nil,
                modes: pilot.modes)
        }
        // The 0183 pilots on outputs marked `autopilot`: what they do is not heard, only what they are sent.
        for output in configuration.outputs where output.autopilot {
            statuses.append(
                AutopilotStatus(
                    id: "nmea0183-" + output.name, provider: "telltale-0183", state: nil, mode: nil, target: nil,
                    targetIsMagnetic: false, engaged: nil, modes: ["route", "wind"], actions: ["courseNextPoint"]))
        }
        let heard = statuses.first { $0.provider == "telltale-n2k" }
        // The autopilot alarm: the default pilot's state, and whether the crew asked for standby just now.
        router.pilot(
            heard.map {
                PilotReport(
                    id: $0.id, state: $0.state, standbyAsked: (standbyAsked[$0.id] ?? -.infinity) > now - 5)
            })
        // The default pilot's values again each second, as a pilot repeats them (a value not refreshed would be
        // withdrawn as stale).
        if let heard, let state {
            state.feed.take(autopilot: heard, at: engineTime(now), unixTime: unixTime(at: now))
        }
        guard statuses != autopilots else { return }
        for status in statuses where status.provider == "telltale-n2k" {
            let before = autopilots.first { $0.id == status.id }
            if status.state == "off-line" && before?.state != "off-line" {
                log.warning(
                    "autopilot.offline", "autopilot: \(status.id) is not heard any more (off-line)",
                    [("pilot", status.id)])
            } else if before == nil || (before?.state == "off-line" && status.state != "off-line") {
                log.notice(
                    "autopilot.heard", "autopilot: \(status.id) heard: \(status.state ?? "state not said yet")",
                    [("pilot", status.id)])
            }
        }
        autopilots = statuses
        web?.server.setAutopilots(statuses)
    }
}

extension Runtime {
    /// A command from the Autopilot API for the pilot `device` (#41): turned into the pilot's own terms (a tack or
    /// gybe onto the polar's angle for the wind now, from the engine's last report; a dodge from the target held when
    /// it began), then its messages written to the bus once (no retry: the pilot's own state coming back is the
    /// answer the panel waits for). The status and words for the API: 200 sent, 404 not heard, 409 what this pilot
    /// or this moment cannot do, 503 the bus cannot take it.
    func commandPilot(_ device: String, _ command: AutopilotCommand, at now: Double) -> (Int, String) {
        if device.hasPrefix("nmea0183-") { return commandSentencePilot(String(device.dropFirst(9)), command) }
        guard let n2k, let pilot = n2k.bus.pilots.pilot(named: device) else {
            return (404, "no such autopilot on the bus")
        }
        guard n2k.bus.pilots.isOnline(pilot.address, at: now) else {
            return (409, "\(device) is off-line (not heard for \(Int(PilotWatch.offlineAfter)) s): nothing sent")
        }
        let orders: [PilotCommander.Order]
        switch pilotOrders(pilot, command) {
        case .success(let made): orders = made
        case .failure(let refusal): return (409, refusal.message)
        }
        var messages: [N2KOutbound.Outgoing] = []
        for order in orders {
            switch PilotCommander.messages(order, for: pilot) {
            case .success(let more): messages += more
            case .failure(let refusal): return (409, refusal.message)
            }
        }
        guard let frames = n2k.command(messages, now: now) else {
            log.warning(
                "autopilot.unsent",
                "autopilot: \(device) \(command.words): the bus cannot take it now (no address "
                    + "held, or the bus is down)", [("pilot", device)])
            return (503, "the NMEA 2000 bus cannot take it now (no address held yet, or the bus is down): not sent")
        }
        pilotCommands += 1
        pilotFrames += frames
        if case .dodgeLeave = command { dodges[device] = nil }
        if orders.contains(.standby) { standbyAsked[device] = now }
        log.notice(
            "autopilot.command", "autopilot: \(device) \(command.words): \(messages.count) message(s) sent",
            [("pilot", device)])
        return (200, "sent to \(device): \(command.words)")
    }

    /// An NMEA 0183 pilot on an output: it steers by the APB, RMB and XTE (route) or the MWV (wind) it is sent and says
    /// nothing back, so the one thing asked of it here is the route's next point (the sentences then lead there);
    /// the rest is refused with why, and nothing is sent.
    func commandSentencePilot(_ output: String, _ command: AutopilotCommand) -> (Int, String) {
        let following = lastReport?.values.navigationLeg != nil
        switch command {
        case .courseNextPoint:
            guard following else { return (409, "no route is followed: set one first") }
            let outcome = router.command(.route(.advance), at: engineTime(turn.now))
            guard outcome.isDone else { return (409, outcome.message) }
            log.notice(
                "autopilot.command", "autopilot: nmea0183-\(output) on to the next point: \(outcome.message)",
                [("pilot", "nmea0183-" + output)])
            return (200, "the route's next point: the pilot on \(output) is sent APB/RMB/XTE to it")
        case .courseCurrentPoint:
            return (
                409,
                following
                    ? "Telltale already sends the current point (APB/RMB/XTE) on \(output): engage the pilot's route "
                        + "(nav, track) mode at its own control"
                    : "no route is followed: set one, then engage the pilot's route mode at its own control"
            )
        default:
            return (
                409,
                "an NMEA 0183 pilot on \(output) steers by the route (APB, RMB, XTE) and the wind (MWV) Telltale sends "
                    + "it and says nothing back: it cannot be engaged, put in standby, given a target, a tack or a "
                    + "dodge from here; use its own control"
            )
        }
    }

    /// What `command` means for this pilot now, as orders in its terms.
    func pilotOrders(_ pilot: PilotWatch.Pilot, _ command: AutopilotCommand) -> Result<
        [PilotCommander.Order], PilotCommander.Refusal
    > {
        let id = pilot.id
        switch command {
        case .engage, .state("auto"):
            return .success([.engage(mode: pilot.mode ?? "compass")])
        case .disengage, .state:
            return .success([.standby])
        case .mode(let mode):
            return .success([.engage(mode: mode)])
        case .target(let value):
            if pilot.mode == "wind" {
                guard abs(value) <= Double.pi else {
                    return .failure(.cannot("in wind mode the target is a wind angle, ±π"))
                }
                return .success([.windAngle(value)])
            }
            return .success([.heading(value)])
        case .adjust(let change):
            return .success([.turn(change)])
        case .tack(let toPort), .gybe(let toPort):
            var gybe = false
            if case .gybe = command { gybe = true }
            guard pilot.state == "auto" else {
                return .failure(.cannot("the pilot is in standby: engage it before a \(gybe ? "gybe" : "tack")"))
            }
            guard let values = lastReport?.values else { return .failure(.cannot("the engine has no values yet")) }
            switch AutopilotTurn.plan(values, gybe: gybe, toPort: toPort) {
            case .failure(let refusal): return .failure(.cannot(refusal.message))
            case .success(let turn):
                let change = turn.change * Double.pi / 180
                log.notice(
                    "autopilot.turn",
                    "autopilot: \(gybe ? "gybe" : "tack") to \(toPort ? "port" : "starboard"): "
                        + "\(Int(turn.change.rounded()))° onto a true wind angle of "
                        + "\(Int(abs(turn.trueWindAngle).rounded()))°", [("pilot", id)])
                if pilot.mode == "wind" {
                    return .success([.windAngle(turn.apparentWindAngle * Double.pi / 180)])
                }
                // From the target held, in the pilot's own north; by keys (or a change of course) when not heard.
                if let target = pilot.target { return .success([.heading(target + change)]) }
                return .success([.turn(change)])
            }
        case .dodgeEnter:
            guard pilot.state == "auto", let target = pilot.target else {
                return .failure(.cannot("a dodge needs the pilot engaged with its target known"))
            }
            dodges[id] = target
            return .success([])
        case .dodge(let offset):
            guard let base = dodges[id] ?? pilot.target else {
                return .failure(.cannot("the pilot's target is not known: no dodge"))
            }
            if dodges[id] == nil { dodges[id] = base }
            return .success([pilot.mode == "wind" ? .windAngle(base + offset) : .heading(base + offset)])
        case .dodgeLeave:
            guard let base = dodges[id] else { return .failure(.cannot("no dodge under way")) }
            return .success([pilot.mode == "wind" ? .windAngle(base) : .heading(base)])
        case .courseCurrentPoint:
            guard lastReport?.values.navigationLeg != nil else {
                return .failure(.cannot("no route or destination is followed: set one first"))
            }
            return .success([.engage(mode: "route")])
        case .courseNextPoint:
            guard lastReport?.values.navigationLeg != nil else {
                return .failure(.cannot("no route or destination is followed: set one first"))
            }
            let outcome = router.command(.route(.advance), at: engineTime(turn.now))
            guard outcome.isDone else { return .failure(.cannot(outcome.message)) }
            return .success([.engage(mode: "route")])
        }
    }
}
