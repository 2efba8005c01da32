/// Steering: 127245 rudder, and 127237 heading/track control, which a pilot's course computer sends.

public struct Rudder: Hashable, Sendable {
    public var instance: Int?
    public var directionOrder: Int?
    public var angleOrder: Double?
    /// Radians; positive to starboard.
    public var position: Double?

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.Rudder
        instance = reader.integer(F.instance)
        directionOrder = reader.integer(F.directionOrder)
        angleOrder = reader.value(F.angleOrder)
        position = reader.value(F.position)
    }
}

extension Rudder {
    /// The rudder's angle, radians, positive to starboard.
    public init(instance: Int = 0, position: Double?) {
        self.instance = instance
        self.position = position
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.Rudder
        var w = N2KWriter(count: 8)
        F.instance.writeRaw(Int64(instance ?? 0), into: &w)
        F.directionOrder.writeRaw(0, into: &w)
        F.angleOrder.write(angleOrder, into: &w)
        F.position.write(position, into: &w)
        return N2KPayload(w.bytes)
    }
}

extension Rudder {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let r = self
        return [
            ("instance", .integer(r.instance)), ("directionOrder", .integer(r.directionOrder)),
            ("angleOrder", .number(r.angleOrder)),
            ("position", .number(r.position)),
        ]
    }
}

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

extension HeadingTrackControl {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let h = self
        return [
            ("rudderLimitExceeded", .integer(h.rudderLimitExceeded)),
            ("offHeadingLimitExceeded", .integer(h.offHeadingLimitExceeded)),
            ("offTrackLimitExceeded", .integer(h.offTrackLimitExceeded)), ("override", .integer(h.override)),
            ("steeringMode", .integer(h.steeringMode)), ("turnMode", .integer(h.turnMode)),
            ("headingReference", .integer(h.headingReference)),
            ("commandedRudderDirection", .integer(h.commandedRudderDirection)),
            ("commandedRudderAngle", .number(h.commandedRudderAngle)),
            ("headingToSteerCourse", .number(h.headingToSteer)),
            ("track", .number(h.track)), ("rudderLimit", .number(h.rudderLimit)),
            ("offHeadingLimit", .number(h.offHeadingLimit)),
            ("radiusOfTurnOrder", .number(h.radiusOfTurnOrder)), ("rateOfTurnOrder", .number(h.rateOfTurnOrder)),
            ("offTrackLimit", .number(h.offTrackLimit)), ("vesselHeading", .number(h.vesselHeading)),
        ]
    }
}
