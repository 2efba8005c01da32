/// What autopilots say on the bus (#41): the standard heading/track control (127237), sent by a pilot's course
/// computer, and Raymarine's own (SeaTalkng, manufacturer 1851): the pilot's mode (65379), the heading it holds
/// (65360), the wind angle it holds (65345). Read by canboat's field layouts; a proprietary PGN from another
/// manufacturer is not one of these (`N2KValue.decode` leaves it `.other`).

/// 127237 Heading/Track control.
public struct HeadingTrackControl: Hashable, Sendable {
    public var rudderLimitExceeded: Int?
    public var offHeadingLimitExceeded: Int?
    public var offTrackLimitExceeded: Int?
    public var override: Int?
    /// canboat's STEERING_MODE: 0 main steering, 1 non-follow-up, 2 follow-up, 3 heading control standalone,
    /// 4 heading control, 5 track control.
    public var steeringMode: Int?
    public var turnMode: Int?
    /// 0 true, 1 magnetic.
    public var headingReference: Int?
    public var commandedRudderDirection: Int?
    /// Radians, positive to starboard.
    public var commandedRudderAngle: Double?
    /// The heading to steer (radians, in `headingReference`).
    public var headingToSteer: Double?
    public var track: Double?
    public var rudderLimit: Double?
    public var offHeadingLimit: Double?
    public var radiusOfTurnOrder: Double?
    public var rateOfTurnOrder: Double?
    public var offTrackLimit: Double?
    public var vesselHeading: Double?

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.HeadingTrackControl
        rudderLimitExceeded = reader.integer(F.rudderLimitExceeded)
        offHeadingLimitExceeded = reader.integer(F.offHeadingLimitExceeded)
        offTrackLimitExceeded = reader.integer(F.offTrackLimitExceeded)
        override = reader.integer(F.override)
        steeringMode = reader.integer(F.steeringMode)
        turnMode = reader.integer(F.turnMode)
        headingReference = reader.integer(F.headingReference)
        commandedRudderDirection = reader.integer(F.commandedRudderDirection)
        commandedRudderAngle = reader.value(F.commandedRudderAngle)
        headingToSteer = reader.value(F.headingToSteerCourse)
        track = reader.value(F.track)
        rudderLimit = reader.value(F.rudderLimit)
        offHeadingLimit = reader.value(F.offHeadingLimit)
        radiusOfTurnOrder = reader.value(F.radiusOfTurnOrder)
        rateOfTurnOrder = reader.value(F.rateOfTurnOrder)
        offTrackLimit = reader.value(F.offTrackLimit)
        vesselHeading = reader.value(F.vesselHeading)
    }
}

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
