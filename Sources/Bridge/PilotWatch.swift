import N2K

/// The autopilots on the bus and what each says it is doing (#41), read from their own PGNs: Raymarine's (SeaTalkng:
/// the mode in 65379, the heading held in 65360, the wind angle held in 65345) and the standard heading/track control
/// (127237) that a pilot's course computer sends. Signal K's Autopilot API words: `state` `standby` or `auto` (engaged),
/// `mode` `compass`, `wind`, `route` or `gps` (Raymarine's no-drift, held on the course over ground), `target` the
/// heading (radians, 0 to 2π) or, in wind mode, the apparent wind angle (radians, ±π, positive starboard). A pilot
/// not heard for ``offlineAfter`` seconds is off-line. Pure: messages and the time in, the pilots out.
public struct PilotWatch: Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// Raymarine Evolution (EV-1, EV-2, ACU with a p70): SeaTalkng's pilot PGNs.
        case raymarine
        /// B&G and Simrad (a NAC or AC course computer): its status and mode in Simnet's 65305, its target in 127237;
        /// commanded by Simnet's 130850.
        case simrad
        /// A pilot known only by its standard heading/track control (127237).
        case nmea2000
    }

    public struct Pilot: Hashable, Sendable {
        public var address: UInt8
        public var kind: Kind
        /// `standby` or `auto`; nil until the pilot said.
        public var state: String?
        /// `compass`, `wind`, `route`, `gps`; nil in standby with nothing said before.
        public var mode: String?
        /// The heading (rad, 0 to 2π; `targetIsMagnetic` says which north) or the wind angle (rad, ±π) held.
        public var target: Double?
        public var targetIsMagnetic = false
        /// Raymarine's pilot mode number as it came (canboat's SEATALK_PILOT_MODE_16), or 127237's steering mode.
        public var rawMode: Int?
        /// Its maker's NMEA 2000 manufacturer code, from its address claim (1851 Raymarine, 1857 Simrad).
        public var manufacturer: Int?
        public var lastHeard: Double

        public var engaged: Bool? { state.map { $0 != "standby" } }

        /// The device id the Autopilot API names it by: its kind and address.
        public var id: String { "\(kind.rawValue)-\(address)" }

        /// The modes it can be put in.
        public var modes: [String] {
            switch kind {
            case .raymarine, .simrad: ["compass", "gps", "wind", "route"]
            case .nmea2000: ["compass", "route"]
            }
        }
    }

    /// Seconds without a word from a pilot before it is off-line.
    public static let offlineAfter = 10.0

    public private(set) var pilots: [UInt8: Pilot] = [:]

    public init() {}

    /// One message from the bus, from a device made by `manufacturer` (its NAME's code, when its claim was heard);
    /// true when a pilot's state, mode or target changed.
    @discardableResult
    public mutating func received(_ message: N2KMessage, manufacturer: Int? = nil, at time: Double) -> Bool {
        let source = message.source
        guard source < 252 else { return false }
        let before = pilots[source]
        defer { if manufacturer != nil { pilots[source]?.manufacturer = manufacturer } }
        if let report = SimnetPilot.report(message), report.model == 0 || report.model == 100 {
            pilots[source] = Self.simnet(report, pilot(source, .simrad, at: time))
        } else {
            switch N2KValue.decode(message).value {
            case .seatalkPilotMode(let mode):
                pilots[source] = Self.seatalk(mode, pilot(source, .raymarine, at: time))
            case .seatalkLockedHeading(let locked):
                var pilot = pilot(source, .raymarine, at: time)
                if pilot.mode != "wind" {
                    if let magnetic = locked.headingMagnetic {
                        pilot.target = magnetic
                        pilot.targetIsMagnetic = true
                    } else if let heading = locked.headingTrue {
                        pilot.target = heading
                        pilot.targetIsMagnetic = false
                    }
                }
                pilots[source] = pilot
            case .seatalkWindDatum(let wind):
                var pilot = pilot(source, .raymarine, at: time)
                if pilot.mode == "wind", let datum = wind.windDatum {
                    pilot.target = datum > Double.pi ? datum - 2 * Double.pi : datum
                    pilot.targetIsMagnetic = false
                }
                pilots[source] = pilot
            case .headingControl(let control):
                // A Raymarine pilot's course computer sends 127237 too: the pilot is told by its own PGNs, this only
                // keeps it heard.
                if pilots[source]?.kind == .raymarine {
                    pilots[source]?.lastHeard = time
                    return false
                }
                pilots[source] = headingControl(control, from: source, at: time)
            default:
                return false
            }
        }
        guard let after = pilots[source] else { return false }
        return before.map { Pilot(copying: $0, heard: after.lastHeard) } != after
    }

    /// A Simnet pilot's own report (65305): its status (2), or the bits of its mode (10).
    private static func simnet(_ report: SimnetPilot.Report, _ pilot: Pilot) -> Pilot {
        var pilot = pilot
        switch report.report {
        case 2:
            // SIMNET_AP_STATUS: 2 manual (standby), 16 automatic.
            if report.value == 2 { pilot.state = "standby" } else if report.value == 16 { pilot.state = "auto" }
        case 10:
            // SIMNET_AP_MODE_BITFIELD: the bits of the mode it is in.
            pilot.rawMode = report.value
            if report.value & 1 << 3 != 0 {
                pilot.state = "standby"
            } else if report.value & 1 << 4 != 0 {
                pilot.mode = "compass"
            } else if report.value & 1 << 6 != 0 {
                pilot.mode = "route"
            } else if report.value & 1 << 8 != 0 {
                pilot.mode = "gps"
            } else if report.value & 1 << 10 != 0 {
                pilot.mode = "wind"
            }
        default: break
        }
        return pilot
    }

    /// A Raymarine pilot's mode (65379).
    private static func seatalk(_ mode: SeatalkPilot.Mode, _ pilot: Pilot) -> Pilot {
        var pilot = pilot
        pilot.rawMode = mode.pilotMode
        switch mode.pilotMode {
        case 0: pilot.state = "standby"
        case 64: (pilot.state, pilot.mode) = ("auto", "compass")
        case 256: (pilot.state, pilot.mode) = ("auto", "wind")
        case 384: (pilot.state, pilot.mode) = ("auto", "route")
        case 385: (pilot.state, pilot.mode) = ("auto", "gps")
        default: break
        }
        return pilot
    }

    /// 127237 from a pilot that is not Raymarine's: a Simnet pilot's target (its state and mode are its own 65305's),
    /// or a standard pilot's state, mode and target.
    private func headingControl(_ control: HeadingTrackControl, from source: UInt8, at time: Double) -> Pilot {
        if pilots[source]?.kind == .simrad {
            var pilot = pilot(source, .simrad, at: time)
            if pilot.state == "auto", let heading = control.headingToSteer {
                pilot.target = heading
                pilot.targetIsMagnetic = control.headingReference == 1
            }
            return pilot
        }
        var pilot = pilot(source, .nmea2000, at: time)
        pilot.rawMode = control.steeringMode
        switch control.steeringMode {
        case 0, 1, 2: pilot.state = "standby"
        case 3, 4: (pilot.state, pilot.mode) = ("auto", "compass")
        case 5: (pilot.state, pilot.mode) = ("auto", "route")
        default: break
        }
        if let heading = control.headingToSteer {
            pilot.target = heading
            pilot.targetIsMagnetic = control.headingReference == 1
        }
        return pilot
    }

    private func pilot(_ address: UInt8, _ kind: Kind, at time: Double) -> Pilot {
        var pilot = pilots[address] ?? Pilot(address: address, kind: kind, lastHeard: time)
        if kind != .nmea2000 { pilot.kind = kind }
        pilot.lastHeard = time
        return pilot
    }

    /// Whether the pilot at `address` has been heard within ``offlineAfter`` seconds of `time`.
    public func isOnline(_ address: UInt8, at time: Double) -> Bool {
        guard let pilot = pilots[address] else { return false }
        return time - pilot.lastHeard <= Self.offlineAfter
    }

    /// The pilots to list, the API's `_default` first: a maker's own (Raymarine's, Simnet's) before those known only
    /// by 127237, then by address. A Raymarine course computer's 127237 (an ACU beside the p70 that speaks for the
    /// pilot) is the same pilot, not another.
    public var listed: [Pilot] {
        let raymarine = pilots.values.contains { $0.kind == .raymarine }
        return pilots.values.filter {
            !(raymarine && $0.kind == .nmea2000 && $0.manufacturer == SeatalkPilot.manufacturer)
        }
        .sorted { a, b in
            let x = a.kind == .nmea2000 ? 1 : 0
            let y = b.kind == .nmea2000 ? 1 : 0
            return x != y ? x < y : a.address < b.address
        }
    }

    /// The pilot the API names `id` (`raymarine-204`), if heard.
    public func pilot(named id: String) -> Pilot? { pilots.values.first { $0.id == id } }

    /// A device that claimed a new address, or another device at an address: what was known of it goes.
    public mutating func forget(_ address: UInt8) { pilots[address] = nil }
}

extension PilotWatch.Pilot {
    /// The same pilot heard at another time (to tell a change of what it says from a message that repeats it).
    init(copying pilot: Self, heard: Double) {
        self = pilot
        lastHeard = heard
    }
}
