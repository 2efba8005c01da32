import Engine

/// What a command means for a pilot now, as orders in its terms.
extension AutopilotDesk {
    mutating func orders(
        _ pilot: AutopilotStatus, _ command: AutopilotCommand, values: InstrumentValues?, _ out: inout [Action]
    ) -> Result<[PilotCommander.Order], PilotCommander.Refusal> {
        let id = pilot.id
        switch command {
        case .engage, .state("auto"):
            return .success([.engage(mode: pilot.mode ?? "compass")])
        case .disengage, .state:
            return .success([.standby])
        case .mode(let mode):
            return .success([.engage(mode: mode)])
        case .target(let value):
            guard pilot.mode == "wind" else { return .success([.heading(value)]) }
            guard abs(value) <= Double.pi else {
                return .failure(.cannot("in wind mode the target is a wind angle, ±π"))
            }
            return .success([.windAngle(value)])
        case .adjust(let change):
            return .success([.turn(change)])
        case .tack(let toPort), .gybe(let toPort):
            var gybe = false
            if case .gybe = command { gybe = true }
            return turn(pilot, gybe: gybe, toPort: toPort, values: values, &out)
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
        case .courseCurrentPoint, .courseNextPoint:
            guard values?.navigationLeg != nil else {
                return .failure(.cannot("no route or destination is followed: set one first"))
            }
            return .success([.engage(mode: "route")])
        case .makeDefault:
            return .success([])
        }
    }

    /// A tack or gybe onto the polar's angle for the wind now (``AutopilotTurn``), in the pilot's terms: in wind mode
    /// the new apparent angle (a Simnet pilot's is not read, so it turns by the change); else the new heading from
    /// the target held, in the pilot's own north, or by keys when the target is not heard.
    private func turn(
        _ pilot: AutopilotStatus, gybe: Bool, toPort: Bool, values: InstrumentValues?, _ out: inout [Action]
    ) -> Result<[PilotCommander.Order], PilotCommander.Refusal> {
        guard pilot.state == "auto" else {
            return .failure(.cannot("the pilot is in standby: engage it before a \(gybe ? "gybe" : "tack")"))
        }
        guard let values else { return .failure(.cannot("the engine has no values yet")) }
        let turn: AutopilotTurn
        switch AutopilotTurn.plan(values, gybe: gybe, toPort: toPort) {
        case .failure(let refusal): return .failure(.cannot(refusal.message))
        case .success(let planned): turn = planned
        }
        let change = turn.change * Double.pi / 180
        out.append(
            .log(
                Notice(
                    level: .notice, id: "autopilot.turn",
                    text: "autopilot: \(gybe ? "gybe" : "tack") to \(toPort ? "port" : "starboard"): "
                        + "\(Int(turn.change.rounded()))° onto a true wind angle of "
                        + "\(Int(abs(turn.trueWindAngle).rounded()))°", pilot: pilot.id)))
        if pilot.mode == "wind" && !pilot.id.hasPrefix("simrad-") {
            return .success([.windAngle(turn.apparentWindAngle * Double.pi / 180)])
        }
        if pilot.mode == "wind" { return .success([.turn(change)]) }
        if let target = pilot.target { return .success([.heading(target + change)]) }
        return .success([.turn(change)])
    }
}
