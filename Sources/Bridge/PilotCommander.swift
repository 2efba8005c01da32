import N2K

/// What to send a pilot on the bus for one order (#41), in the pilot's own language: Raymarine's (126208 into its
/// 65379/65360/65345, and its keys in 126720), Simnet's (130850, addressed in the payload) or the standard
/// heading/track control (126208 into 127237). Pure: the pilot as heard and the order in, the messages out, or why
/// this pilot cannot take it (the API answers that, and nothing is sent).
public enum PilotCommander {
    /// An order, already in the pilot's terms: radians, headings in the pilot's own reference (magnetic when it holds
    /// a magnetic heading), wind angles ±π with positive to starboard.
    public enum Order: Hashable, Sendable {
        case standby
        /// Engaged in `mode` (`compass`, `gps`, `wind`, `route`).
        case engage(mode: String)
        case heading(Double)
        case windAngle(Double)
        /// The target moved by this much (positive to starboard), however the pilot holds it.
        case turn(Double)
    }

    public enum Refusal: Error, Hashable, Sendable {
        case cannot(String)

        public var message: String {
            switch self {
            case .cannot(let words): words
            }
        }
    }

    /// The messages that carry `order` to `pilot`.
    public static func messages(_ order: Order, for pilot: PilotWatch.Pilot) -> Result<
        [N2KOutbound.Outgoing], Refusal
    > {
        switch pilot.kind {
        case .raymarine: return raymarine(order, pilot)
        case .simrad: return simnet(order, pilot)
        case .nmea2000: return standard(order, pilot)
        }
    }

    static func addressed(_ pgn: UInt32, _ payload: N2KPayload, to address: UInt8, priority: UInt8 = 3)
        -> N2KOutbound.Outgoing
    {
        N2KOutbound.Outgoing(pgn: pgn, priority: priority, destination: address, payload: payload)
    }

    /// 0 to 2π.
    static func direction(_ radians: Double) -> Double {
        let turn = 2 * Double.pi
        let wrapped = radians.truncatingRemainder(dividingBy: turn)
        let positive = wrapped < 0 ? wrapped + turn : wrapped
        return positive >= turn ? 0 : positive
    }

    static func raymarine(_ order: Order, _ pilot: PilotWatch.Pilot) -> Result<[N2KOutbound.Outgoing], Refusal> {
        func mode(_ number: Int) -> N2KOutbound.Outgoing {
            addressed(126208, PilotCommands.raymarineMode(number), to: pilot.address)
        }
        switch order {
        case .standby:
            return .success([mode(0)])
        case .engage(let name):
            switch name {
            case "compass": return .success([mode(64)])
            case "wind": return .success([mode(256)])
            case "route": return .success([mode(384)])
            case "gps": return .success([mode(385)])
            default: return .failure(.cannot("a Raymarine pilot has no mode \(name)"))
            }
        case .heading(let heading):
            guard pilot.mode != "wind" else {
                return .failure(.cannot("the pilot is in wind mode: its target is a wind angle"))
            }
            // Evolution pilots take the heading they lock as magnetic.
            return .success([
                addressed(126208, PilotCommands.raymarineHeading(magnetic: direction(heading)), to: pilot.address)
            ])
        case .windAngle(let angle):
            guard pilot.mode == "wind" else {
                return .failure(.cannot("the pilot is not in wind mode: its target is a heading"))
            }
            return .success([
                addressed(126208, PilotCommands.raymarineWindDatum(direction(angle)), to: pilot.address)
            ])
        case .turn(let change):
            // The p70's keys, as the crew would press them: tens, then ones (works in every mode, and with the target
            // not yet heard).
            let degrees = Int((abs(change) * 180 / Double.pi).rounded())
            guard degrees >= 1 else { return .failure(.cannot("a Raymarine pilot turns by whole degrees")) }
            guard degrees <= 90 else { return .failure(.cannot("at most 90° at a time")) }
            let tens: UInt8 = change < 0 ? 6 : 8
            let ones: UInt8 = change < 0 ? 5 : 7
            let keys = Array(repeating: tens, count: degrees / 10) + Array(repeating: ones, count: degrees % 10)
            // The keys are broadcast, as a p70 sends them.
            return .success(keys.map { addressed(126720, PilotCommands.raymarineKey($0), to: 255, priority: 7) })
        }
    }

    static func simnet(_ order: Order, _ pilot: PilotWatch.Pilot) -> Result<[N2KOutbound.Outgoing], Refusal> {
        func event(_ number: UInt8) -> N2KOutbound.Outgoing {
            addressed(130850, PilotCommands.simnet(event: number, to: pilot.address), to: 255, priority: 2)
        }
        func change(_ radians: Double) -> Result<[N2KOutbound.Outgoing], Refusal> {
            guard abs(radians) >= 0.5 * Double.pi / 180 else { return .failure(.cannot("less than half a degree")) }
            return .success([
                addressed(
                    130850, PilotCommands.simnetChangeCourse(radians, to: pilot.address), to: 255, priority: 2)
            ])
        }
        switch order {
        case .standby: return .success([event(6)])
        case .engage(let name):
            switch name {
            case "compass": return .success([event(9)])
            case "route": return .success([event(10)])
            case "gps": return .success([event(12)])
            case "wind": return .success([event(15)])
            default: return .failure(.cannot("a Simrad pilot has no mode \(name)"))
            }
        case .turn(let radians):
            return change(radians)
        case .heading(let heading):
            // Simnet pilots take a change of course, not a heading: from the one they hold.
            guard pilot.mode != "wind", let target = pilot.target else {
                return .failure(.cannot("the pilot's heading is not known: use target/adjust"))
            }
            var delta = direction(heading) - target
            if delta > Double.pi { delta -= 2 * Double.pi }
            if delta <= -Double.pi { delta += 2 * Double.pi }
            return change(delta)
        case .windAngle:
            // The wind angle a Simnet pilot holds is not read (its 65341), so a new one cannot be given as a change
            // from it: a turn (target/adjust) can.
            return .failure(.cannot("a Simrad pilot's wind angle is not read here: use target/adjust to move it"))
        }
    }

    static func standard(_ order: Order, _ pilot: PilotWatch.Pilot) -> Result<[N2KOutbound.Outgoing], Refusal> {
        func control(_ mode: Int?, _ heading: Double?) -> [N2KOutbound.Outgoing] {
            [
                addressed(
                    126208,
                    PilotCommands.headingControl(
                        steeringMode: mode, heading: heading.map(direction), magnetic: pilot.targetIsMagnetic),
                    to: pilot.address)
            ]
        }
        switch order {
        case .standby: return .success(control(0, nil))
        case .engage(let name):
            switch name {
            case "compass": return .success(control(4, nil))
            case "route": return .success(control(5, nil))
            default:
                return .failure(
                    .cannot("this pilot is known by its standard heading control only: it has no \(name) mode here"))
            }
        case .heading(let heading): return .success(control(nil, heading))
        case .turn(let change):
            guard let target = pilot.target else {
                return .failure(.cannot("the pilot's heading is not known yet: set a target"))
            }
            return .success(control(nil, target + change))
        case .windAngle:
            return .failure(.cannot("this pilot is known by its standard heading control only: no wind mode"))
        }
    }
}
