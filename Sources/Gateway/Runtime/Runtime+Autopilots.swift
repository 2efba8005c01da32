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
        var statuses = watch.listed.map { status(of: $0, at: now) }
        if let pypilot = pypilotStatus(at: now) { statuses.append(pypilot) }
        // The 0183 pilots on outputs marked `autopilot`: what they do is not heard, only what they are sent.
        for output in configuration.outputs where output.autopilot {
            statuses.append(
                AutopilotStatus(
                    id: "nmea0183-" + output.name, provider: "telltale-0183", state: nil, mode: nil, target: nil,
                    targetIsMagnetic: false, engaged: nil, modes: ["route", "wind"], actions: ["courseNextPoint"]))
        }
        // The one the crew made the default first (while it is there).
        if let chosen = statuses.firstIndex(where: { $0.id == defaultPilot }), chosen > 0 {
            statuses.insert(statuses.remove(at: chosen), at: 0)
        }
        let heard = statuses.first { $0.provider != "telltale-0183" }
        // The autopilot alarm watches the pilot last seen steering (a boat steers with one), else the default one; with
        // whether the crew asked it for standby just now.
        if let steering = statuses.first(where: { $0.state == "auto" }) { steeringPilot = steering.id }
        let watched = statuses.first { $0.id == steeringPilot } ?? heard
        router.pilot(
            watched.map {
                PilotReport(
                    id: $0.id, state: $0.state, standbyAsked: (standbyAsked[$0.id] ?? -.infinity) > now - 5)
            })
        // The default pilot's values again each second, as a pilot repeats them (a value not refreshed would be
        // withdrawn as stale).
        if let heard, let state {
            state.feed.take(autopilot: heard, at: engineTime(now), unixTime: unixTime(at: now))
        }
        guard statuses != autopilots else { return }
        for status in statuses where status.provider != "telltale-0183" {
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
        if case .makeDefault = command {
            defaultPilot = device
            keepAutopilots(at: now)
            log.notice("autopilot.default", "autopilot: \(device) is the default pilot", [("pilot", device)])
            return (200, "\(device) is the default pilot")
        }
        if device.hasPrefix("nmea0183-") { return commandSentencePilot(String(device.dropFirst(9)), command) }
        guard let pilot = liveStatus(device, at: now) else { return (404, "no such autopilot heard") }
        guard pilot.state != "off-line" else {
            return (409, "\(device) is off-line (not heard for \(Int(PilotWatch.offlineAfter)) s): nothing sent")
        }
        // A tack or gybe counting down is called off by any other command to the pilot (standby above all).
        if let pending = pendingTurn, pending.device == device {
            pendingTurn = nil
            say(pending.words + " called off", at: now)
        }
        let orders: [PilotCommander.Order]
        switch pilotOrders(pilot, command) {
        case .success(let made): orders = made
        case .failure(let refusal): return (409, refusal.message)
        }
        if case .failure(let refusal) = check(orders, for: device) { return (409, refusal.message) }
        var turning: String?
        switch command {
        case .tack(let port): turning = "tacking to " + (port ? "port" : "starboard")
        case .gybe(let port): turning = "gybing to " + (port ? "port" : "starboard")
        default: break
        }
        if let words = turning {
            // Said before it happens, so the crew can mind the sheets and the boom; sent when the countdown ends.
            pendingTurn = PendingTurn(device: device, orders: orders, due: now + Self.turnWarning, words: words)
            say("\(words) in \(Int(Self.turnWarning)) seconds", at: now)
            return (200, "\(words) in \(Int(Self.turnWarning)) s (any command to the pilot before then calls it off)")
        }
        let (status, message) = deliver(orders, to: device, words: command.words, at: now)
        if status == 200, case .mode("wind") = command, AutopilotTurn.windTarget(lastReport?.values ?? .init()) != nil {
            // Close-hauled or running: once the pilot says it is in wind mode, the polar's angle (`windTargetDue`).
            windTargetDue = (device, now + 10)
        }
        return (status, message)
    }

    /// A pilot just put in wind mode while close-hauled or running: the polar's target angle for it once it says it
    /// is in wind mode (within 10 s), as the apparent wind angle it holds (checked each second).
    func sendWindTarget(at now: Double) {
        guard let due = windTargetDue else { return }
        let device = due.device
        guard now <= due.until else {
            windTargetDue = nil
            return
        }
        guard let pilot = liveStatus(device, at: now), pilot.state == "auto", pilot.mode == "wind" else { return }
        windTargetDue = nil
        guard let values = lastReport?.values, let target = AutopilotTurn.windTarget(values) else { return }
        let (status, _) = deliver(
            [.windAngle(target.apparentWindAngle * Double.pi / 180)], to: device,
            words: "the polar's angle, \(Int(abs(target.trueWindAngle).rounded()))° true", at: now)
        if status == 200 {
            say(
                "wind mode, \(Int(abs(target.trueWindAngle).rounded())) degrees true on the polar, "
                    + "\(Int(abs(target.apparentWindAngle).rounded())) apparent", at: now)
        }
    }

    /// A pilot as the API shows it, from what its bus says now.
    func status(of pilot: PilotWatch.Pilot, at now: Double) -> AutopilotStatus {
        let online = n2k?.bus.pilots.isOnline(pilot.address, at: now) ?? false
        return AutopilotStatus(
            id: pilot.id, provider: "telltale-n2k", state: online ? pilot.state : "off-line", mode: pilot.mode,
            target: online ? pilot.target : nil, targetIsMagnetic: pilot.targetIsMagnetic,
            engaged: online ? pilot.engaged : nil, modes: pilot.modes)
    }

    /// pypilot as the API shows it (`pypilot`), once it has been heard; off-line when not connected or not heard
    /// for 10 s.
    func pypilotStatus(at now: Double) -> AutopilotStatus? {
        guard let pypilot, let heard = pypilot.link.lastHeard else { return nil }
        let online = pypilot.isConnected && now - heard <= PilotWatch.offlineAfter
        let link = pypilot.link
        return AutopilotStatus(
            id: "pypilot", provider: "telltale-pypilot", state: online ? link.state : "off-line", mode: link.apiMode,
            target: online ? link.target : nil, targetIsMagnetic: false, engaged: online ? link.enabled : nil,
            modes: ["compass", "gps", "wind", "route"])
    }

    /// The pilot named `device`, from what it says now.
    func liveStatus(_ device: String, at now: Double) -> AutopilotStatus? {
        if device == "pypilot" { return pypilotStatus(at: now) }
        return n2k?.bus.pilots.pilot(named: device).map { status(of: $0, at: now) }
    }

    /// Whether the pilot can take every order (nothing is sent of a command it cannot take whole).
    func check(_ orders: [PilotCommander.Order], for device: String) -> Result<Void, PilotCommander.Refusal> {
        for order in orders {
            if device == "pypilot" {
                if case .failure(let refusal) = pypilot?.link.lines(order) ?? .failure(.cannot("no pypilot")) {
                    return .failure(refusal)
                }
            } else if let pilot = n2k?.bus.pilots.pilot(named: device),
                case .failure(let refusal) = PilotCommander.messages(order, for: pilot)
            {
                return .failure(refusal)
            }
        }
        return .success(())
    }

    /// The orders to the pilot, once: on the bus, or to pypilot.
    func deliver(_ orders: [PilotCommander.Order], to device: String, words: String, at now: Double) -> (Int, String) {
        if device == "pypilot" {
            guard let pypilot else { return (404, "no pypilot") }
            var lines: [String] = []
            for order in orders {
                switch pypilot.link.lines(order) {
                case .success(let more): lines += more
                case .failure(let refusal): return (409, refusal.message)
                }
            }
            guard pypilot.send(lines, now: now) else {
                return (503, "pypilot is not connected: not sent")
            }
            if orders.contains(.standby) { standbyAsked[device] = now }
            log.notice(
                "autopilot.command", "autopilot: pypilot \(words): \(lines.count) line(s) sent", [("pilot", device)])
            return (200, "sent to pypilot: \(words)")
        }
        guard let pilot = n2k?.bus.pilots.pilot(named: device) else { return (404, "no such autopilot on the bus") }
        return send(orders, to: pilot, device: device, words: words, at: now)
    }

    /// Seconds between a tack or gybe said aloud and its command to the pilot.
    static let turnWarning = 5.0

    /// The tack or gybe whose countdown has ended, sent (checked each second).
    func sendDueTurn(at now: Double) {
        guard let pending = pendingTurn, now >= pending.due else { return }
        pendingTurn = nil
        guard let pilot = liveStatus(pending.device, at: now), pilot.state != "off-line" else {
            say(pending.words + ": the pilot is not heard, not sent", at: now)
            return
        }
        let (status, _) = deliver(pending.orders, to: pending.device, words: pending.words, at: now)
        if status != 200 { say(pending.words + ": not sent", at: now) }
    }

    /// Said aloud (with `[voice]`) and in the log, as the engine's announcements are.
    func say(_ text: String, at now: Double) {
        // Never held back: what was said aloud is always in the log.
        log(LogEvent(.info, "voice.announce", "announce: \(text)", [("text", text)], throttled: false))
        voice?.say(text, at: now)
    }

    /// The orders' messages written to the bus, once.
    func send(
        _ orders: [PilotCommander.Order], to pilot: PilotWatch.Pilot, device: String, words: String, at now: Double
    )
        -> (Int, String)
    {
        guard let n2k else { return (404, "no NMEA 2000 bus") }
        var messages: [N2KOutbound.Outgoing] = []
        for order in orders {
            switch PilotCommander.messages(order, for: pilot) {
            case .success(let more): messages += more
            case .failure(let refusal): return (409, refusal.message)
            }
        }
        guard n2k.command(messages, now: now) != nil else {
            log.warning(
                "autopilot.unsent",
                "autopilot: \(device) \(words): the bus cannot take it now (no address held, or the bus is down)",
                [("pilot", device)])
            return (503, "the NMEA 2000 bus cannot take it now (no address held yet, or the bus is down): not sent")
        }
        if orders.contains(.standby) { standbyAsked[device] = now }
        log.notice(
            "autopilot.command", "autopilot: \(device) \(words): \(messages.count) message(s) sent", [("pilot", device)]
        )
        return (200, "sent to \(device): \(words)")
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
    func pilotOrders(_ pilot: AutopilotStatus, _ command: AutopilotCommand) -> Result<
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
                // In wind mode the new apparent angle; a Simnet pilot's is not read, so it turns by the change.
                if pilot.mode == "wind" && !pilot.id.hasPrefix("simrad-") {
                    return .success([.windAngle(turn.apparentWindAngle * Double.pi / 180)])
                }
                if pilot.mode == "wind" { return .success([.turn(change)]) }
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
            dodges[id] = nil
            return .success([pilot.mode == "wind" ? .windAngle(base) : .heading(base)])
        case .courseCurrentPoint:
            guard lastReport?.values.navigationLeg != nil else {
                return .failure(.cannot("no route or destination is followed: set one first"))
            }
            return .success([.engage(mode: "route")])
        case .makeDefault:
            return .success([])
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

/// A tack or gybe said aloud, waiting for its countdown to end.
struct PendingTurn {
    var device: String
    var orders: [PilotCommander.Order]
    var due: Double
    var words: String
}
