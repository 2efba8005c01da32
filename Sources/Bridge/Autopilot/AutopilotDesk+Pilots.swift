import Engine

/// The pilots as the API shows them, once a second: listed, the default first, the watched one for the alarm.
extension AutopilotDesk {
    /// The provider of an NMEA 0183 pilot, which says nothing back.
    static let sentenceProvider = "telltale-0183"

    /// Every pilot heard, as the API shows it now: the bus's, pypilot, then the 0183 pilots; the one the crew chose
    /// first (while it is there).
    public func statuses(_ heard: Heard, at now: Double) -> [AutopilotStatus] {
        var statuses = heard.bus.listed.map { Self.status(of: $0, on: heard.bus, at: now) }
        if let pypilot = Self.pypilotStatus(heard, at: now) { statuses.append(pypilot) }
        // What an 0183 pilot does is not heard, only what it is sent.
        for output in settings.sentencePilots {
            statuses.append(
                AutopilotStatus(
                    id: "nmea0183-" + output, provider: Self.sentenceProvider, state: nil, mode: nil, target: nil,
                    targetIsMagnetic: false, engaged: nil, modes: ["route", "wind"], actions: ["courseNextPoint"]))
        }
        if let chosen = statuses.firstIndex(where: { $0.id == chosenDefault }), chosen > 0 {
            statuses.insert(statuses.remove(at: chosen), at: 0)
        }
        return statuses
    }

    /// A pilot of the bus as the API shows it, from what the bus says now.
    static func status(of pilot: PilotWatch.Pilot, on bus: PilotWatch, at now: Double) -> AutopilotStatus {
        let online = bus.isOnline(pilot.address, at: now)
        return AutopilotStatus(
            id: pilot.id, provider: "telltale-n2k", state: online ? pilot.state : "off-line", mode: pilot.mode,
            target: online ? pilot.target : nil, targetIsMagnetic: pilot.targetIsMagnetic,
            engaged: online ? pilot.engaged : nil, modes: pilot.modes)
    }

    /// pypilot as the API shows it (`pypilot`), once it has been heard; off-line when not connected or not heard
    /// for ``PilotWatch/offlineAfter`` s.
    static func pypilotStatus(_ heard: Heard, at now: Double) -> AutopilotStatus? {
        guard let link = heard.pypilot, let last = link.lastHeard else { return nil }
        let online = heard.pypilotConnected && now - last <= PilotWatch.offlineAfter
        return AutopilotStatus(
            id: "pypilot", provider: "telltale-pypilot", state: online ? link.state : "off-line", mode: link.apiMode,
            target: online ? link.target : nil, targetIsMagnetic: false, engaged: online ? link.enabled : nil,
            modes: ["compass", "gps", "wind", "route"])
    }

    /// The pilot named `device`, from what it says now (not the 0183 pilots: they say nothing).
    static func liveStatus(_ device: String, _ heard: Heard, at now: Double) -> AutopilotStatus? {
        if device == "pypilot" { return pypilotStatus(heard, at: now) }
        return heard.bus.pilot(named: device).map { status(of: $0, on: heard.bus, at: now) }
    }

    /// The list for the API and its changes said; the watched pilot for the alarm; the default one's values again
    /// (as a pilot repeats them).
    mutating func list(_ heard: Heard, at now: Double, _ out: inout [Action]) {
        let statuses = statuses(heard, at: now)
        let spoken = statuses.first { $0.provider != Self.sentenceProvider }
        // A boat steers with one pilot: the alarm watches the one last seen steering, else the default one.
        if let steering = statuses.first(where: { $0.state == "auto" }) { steeringPilot = steering.id }
        let watched = statuses.first { $0.id == steeringPilot } ?? spoken
        out.append(
            .watch(
                watched.map {
                    PilotReport(
                        id: $0.id, state: $0.state,
                        standbyAsked: (standbyAsked[$0.id] ?? -.infinity) > now - settings.standbyGrace)
                }))
        if let spoken { out.append(.defaultPilot(spoken)) }
        guard statuses != listed else { return }
        for status in statuses where status.provider != Self.sentenceProvider {
            let before = listed.first { $0.id == status.id }
            if status.state == "off-line" && before?.state != "off-line" {
                out.append(
                    .log(
                        Notice(
                            level: .warning, id: "autopilot.offline",
                            text: "autopilot: \(status.id) is not heard any more (off-line)", pilot: status.id)))
            } else if before == nil || (before?.state == "off-line" && status.state != "off-line") {
                out.append(
                    .log(
                        Notice(
                            level: .notice, id: "autopilot.heard",
                            text: "autopilot: \(status.id) heard: \(status.state ?? "state not said yet")",
                            pilot: status.id)))
            }
        }
        listed = statuses
        out.append(.listed(statuses))
    }

    /// The tack or gybe whose countdown has ended, sent; not to a pilot gone off-line meanwhile (said).
    mutating func sendDueTurn(_ heard: Heard, at now: Double, _ out: inout [Action]) {
        guard let pending = pendingTurn, now >= pending.due else { return }
        pendingTurn = nil
        guard let pilot = Self.liveStatus(pending.delivery.device, heard, at: now), pilot.state != "off-line" else {
            return out.append(.say(pending.delivery.words + ": the pilot is not heard, not sent"))
        }
        out.append(.deliver(pending.delivery))
    }

    /// A pilot just put in wind mode while close-hauled or running: the polar's target angle for it once it says it
    /// is in wind mode (within ``Settings/windTargetWait`` s), as the apparent wind angle it holds.
    mutating func sendWindTarget(_ heard: Heard, values: InstrumentValues?, at now: Double, _ out: inout [Action]) {
        guard let due = windTargetDue else { return }
        guard now <= due.until else {
            windTargetDue = nil
            return
        }
        guard let pilot = Self.liveStatus(due.device, heard, at: now), pilot.state == "auto", pilot.mode == "wind"
        else { return }
        windTargetDue = nil
        guard let values, let target = AutopilotTurn.windTarget(values) else { return }
        let words = "the polar's angle, \(Int(abs(target.trueWindAngle).rounded()))° true"
        guard
            case .success(let delivery) = Self.delivery(
                [.windAngle(target.apparentWindAngle * Double.pi / 180)], for: due.device, words: words, heard)
        else { return }
        delivery.reason = .windTarget(trueWindAngle: target.trueWindAngle, apparent: target.apparentWindAngle)
        out.append(.deliver(delivery))
    }
}
