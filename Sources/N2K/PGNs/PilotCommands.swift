/// What Telltale says to a pilot (#41), byte for byte as canboat's database lays the messages out (and as the
/// pilots' own controllers send them):
///
/// - the standard way to set another device's PGN fields: 126208 Command group function, addressed to the pilot
///   (function 1, the PGN, priority 8 "leave as it is", the pairs of field number and value); Raymarine's pilot
///   takes its mode (65379), its locked heading (65360) and its wind datum (65345) so, and a standard pilot its
///   heading/track control (127237);
/// - Raymarine's keys (126720, SeaTalk1 keystroke: device 33, the key and its complement);
/// - Simnet's AP commands (130850, addressed by the pilot's address in the payload; the pilot echoes each in 130851).
public enum PilotCommands {
    /// The first bytes of a proprietary payload: the manufacturer's code, reserved bits, marine industry (4).
    static func proprietary(_ manufacturer: Int) -> [UInt8] {
        let word = manufacturer & 0x7FF | 0x3 << 11 | 4 << 13
        return [UInt8(word & 0xFF), UInt8(word >> 8)]
    }

    /// A 16-bit angle field (1e-4 rad), 0xFFFF "not available" for nil; held to the field's range (0 to 65,532) before
    /// it is made whole, so no angle however wild traps (`Int(1e304)` would).
    static func angle(_ radians: Double?) -> [UInt8] {
        guard let radians, radians.isFinite else { return [0xFF, 0xFF] }
        let raw = UInt16(max(0, min(65_532, (radians * 10_000).rounded())))
        return [UInt8(raw & 0xFF), UInt8(raw >> 8)]
    }

    /// 126208 Command group function for `pgn`, with the pairs (field number, value bytes).
    public static func command(pgn: UInt32, _ pairs: [(field: UInt8, value: [UInt8])]) -> N2KPayload {
        var bytes: [UInt8] = [1, UInt8(pgn & 0xFF), UInt8(pgn >> 8 & 0xFF), UInt8(pgn >> 16 & 0xFF), 0xF8]
        bytes.append(UInt8(pairs.count))
        for pair in pairs {
            bytes.append(pair.field)
            bytes += pair.value
        }
        return N2KPayload(bytes)
    }

    /// Raymarine's manufacturer and industry pairs (fields 1 and 3 of its proprietary PGNs).
    static var raymarinePairs: [(field: UInt8, value: [UInt8])] {
        [(1, [UInt8(SeatalkPilot.manufacturer & 0xFF), UInt8(SeatalkPilot.manufacturer >> 8)]), (3, [4])]
    }

    /// Raymarine's pilot mode (SEATALK_PILOT_MODE_16: 0 standby, 64 auto, 256 wind, 384 track, 385 no drift).
    public static func raymarineMode(_ mode: Int) -> N2KPayload {
        command(
            pgn: 65379,
            raymarinePairs + [(4, [UInt8(mode & 0xFF), UInt8(mode >> 8)]), (5, [0xFF, 0xFF])])
    }

    /// Raymarine's locked heading (magnetic, radians 0 to 2π).
    public static func raymarineHeading(magnetic radians: Double) -> N2KPayload {
        command(pgn: 65360, raymarinePairs + [(6, angle(radians))])
    }

    /// Raymarine's wind datum (the apparent wind angle held, radians 0 to 2π from the bow).
    public static func raymarineWindDatum(_ radians: Double) -> N2KPayload {
        command(pgn: 65345, raymarinePairs + [(4, angle(radians))])
    }

    /// Raymarine's keys (canboat's SEATALK_KEYSTROKE): 1 auto, 2 standby, 3 wind, 5 −1, 6 −10, 7 +1, 8 +10,
    /// 33 −1 and −10 (tack to port), 34 +1 and +10 (tack to starboard), 35 track.
    public static func raymarineKey(_ key: UInt8) -> N2KPayload {
        var bytes = proprietary(SeatalkPilot.manufacturer) + [0xF0, 0x81, 0x86, 0x21, key, 0xFF - key]
        // What a p70 sends after the key (canboat: unknown data), the same every time.
        bytes += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xC1, 0xC2, 0xCD, 0x66, 0x80, 0xD3, 0x42, 0xB1, 0xC8]
        return N2KPayload(bytes)
    }

    /// The heading/track control of a standard pilot: its steering mode (STEERING_MODE: 0 main steering, i.e. the
    /// helm; 4 heading control; 5 track control) and, when given, the heading to steer (radians) and its reference.
    public static func headingControl(steeringMode: Int?, heading: Double?, magnetic: Bool) -> N2KPayload {
        var pairs: [(field: UInt8, value: [UInt8])] = []
        if let steeringMode { pairs.append((5, [UInt8(steeringMode & 7)])) }
        if let heading {
            pairs.append((7, [magnetic ? 1 : 0]))
            pairs.append((11, angle(heading)))
        }
        return command(pgn: 127237, pairs)
    }

    /// Simnet's AP command (event: canboat's SIMNET_AP_EVENTS, 6 standby, 9 heading, 10 nav, 12 no drift, 15 wind)
    /// to the pilot at `address`.
    public static func simnet(event: UInt8, to address: UInt8) -> N2KPayload {
        N2KPayload(proprietary(SimnetPilot.manufacturer) + [address, 0xFF, 1, 10, event, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    }

    /// Simnet's change of course (event 26): `radians` to port (negative) or starboard.
    public static func simnetChangeCourse(_ radians: Double, to address: UInt8) -> N2KPayload {
        N2KPayload(
            proprietary(SimnetPilot.manufacturer) + [address, 0xFF, 1, 10, 26, 0xFF, radians < 0 ? 2 : 3]
                + angle(abs(radians)) + [0xFF])
    }
}
