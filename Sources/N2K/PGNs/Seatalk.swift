/// Raymarine's own pilot PGNs (SeaTalkng, manufacturer 1851), read by canboat's field layouts: the pilot's mode
/// (65379), the heading it holds (65360), the wind angle it holds (65345). A proprietary PGN from another manufacturer
/// is not one of these (`N2KValue.decode` leaves it `.other`).

/// Raymarine's pilot PGNs (SeaTalkng).
public enum SeatalkPilot {
    public static let manufacturer = 1851
    public static let marine = 4

    /// Whether a proprietary payload is Raymarine's (manufacturer 1851, marine industry).
    public static func isRaymarine(_ payload: N2KPayload) -> Bool {
        payload.count >= 2 && (Int(payload[0]) | Int(payload[1]) << 8) & 0x7FF == manufacturer
            && Int(payload[1] >> 5) == marine
    }

    /// 65379 Pilot mode: canboat's SEATALK_PILOT_MODE_16 (0 standby, 64 auto on the compass, 256 wind vane, 384 track,
    /// 385 no drift on COG), and the sub-mode and its data as they come.
    public struct Mode: Hashable, Sendable {
        public var pilotMode: Int?
        public var subMode: Int?
        public var data: Int?

        public init(_ reader: inout N2KReader) {
            typealias F = CanboatPGNs.SeatalkPilotMode
            pilotMode = reader.integer(F.pilotMode)
            subMode = reader.integer(F.subMode)
            data = reader.integer(F.pilotModeData)
        }
    }

    /// 65360 The heading the pilot holds, true and magnetic (radians).
    public struct LockedHeading: Hashable, Sendable {
        public var sid: Int?
        public var headingTrue: Double?
        public var headingMagnetic: Double?

        public init(_ reader: inout N2KReader) {
            typealias F = CanboatPGNs.SeatalkPilotLockedHeading
            sid = reader.integer(F.sid)
            headingTrue = reader.value(F.targetHeadingTrue)
            headingMagnetic = reader.value(F.targetHeadingMagnetic)
        }
    }

    /// 65345 The wind angle the pilot holds in wind mode, and its rolling average (radians, 0 to 2π from the bow).
    public struct WindDatum: Hashable, Sendable {
        public var windDatum: Double?
        public var rollingAverage: Double?

        public init(_ reader: inout N2KReader) {
            typealias F = CanboatPGNs.SeatalkPilotWindDatum
            windDatum = reader.value(F.windDatum)
            rollingAverage = reader.value(F.rollingAverageWindAngle)
        }
    }
}

extension SeatalkPilot.Mode {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let m = self
        return [
            ("pilotMode", .integer(m.pilotMode)), ("subMode", .integer(m.subMode)), ("pilotModeData", .integer(m.data)),
        ]
    }
}

extension SeatalkPilot.LockedHeading {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let l = self
        return [
            ("sid", .integer(l.sid)), ("targetHeadingTrue", .number(l.headingTrue)),
            ("targetHeadingMagnetic", .number(l.headingMagnetic)),
        ]
    }
}

extension SeatalkPilot.WindDatum {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let w = self
        return [("windDatum", .number(w.windDatum)), ("rollingAverageWindAngle", .number(w.rollingAverage))]
    }
}
