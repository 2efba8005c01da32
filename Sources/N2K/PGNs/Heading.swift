/// Heading and attitude: 127250 vessel heading, 127251 rate of turn, 127257 attitude, 127258 magnetic variation.

/// 127250 Vessel Heading, 127251 Rate of Turn, 127257 Attitude, 127258 Magnetic Variation, 127245 Rudder: the boat's
/// own motion. Angles in radians; heel (roll) positive to starboard, pitch positive bow up (the NMEA 2000 convention
/// and Telltale's).
public struct VesselHeading: Hashable, Sendable {
    public enum Reference: Int, Sendable {
        case trueNorth = 0
        case magnetic = 1
    }
    public var sid: Int?
    public var heading: Double?
    public var deviation: Double?
    public var variation: Double?
    public var reference: Reference?

    public init(
        sid: Int? = nil, heading: Double?, deviation: Double? = nil, variation: Double? = nil,
        reference: Reference?
    ) {
        self.sid = sid
        self.heading = heading
        self.deviation = deviation
        self.variation = variation
        self.reference = reference
    }

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.VesselHeading
        sid = reader.integer(F.sid)
        heading = reader.value(F.heading)
        deviation = reader.value(F.deviation)
        variation = reader.value(F.variation)
        reference = reader.integer(F.reference).flatMap(Reference.init(rawValue:))
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.VesselHeading
        var w = N2KWriter(count: 8)
        F.sid.write(sid.map(Double.init), into: &w)
        F.heading.write(heading, into: &w)
        F.deviation.write(deviation, into: &w)
        F.variation.write(variation, into: &w)
        F.reference.writeRaw(Int64(reference?.rawValue ?? 3), into: &w)
        return N2KPayload(w.bytes)
    }
}

extension VesselHeading {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let h = self
        return [
            ("sid", .integer(h.sid)), ("heading", .number(h.heading)), ("deviation", .number(h.deviation)),
            ("variation", .number(h.variation)), ("reference", .integer(h.reference?.rawValue)),
        ]
    }
}

public struct RateOfTurn: Hashable, Sendable {
    public var sid: Int?
    /// Radians a second, positive turning to starboard.
    public var rate: Double?

    public init(sid: Int? = nil, rate: Double?) {
        self.sid = sid
        self.rate = rate
    }

    public init(_ reader: inout N2KReader) {
        sid = reader.integer(CanboatPGNs.RateOfTurn.sid)
        rate = reader.value(CanboatPGNs.RateOfTurn.rate)
    }

    public var payload: N2KPayload {
        var w = N2KWriter(count: 8)
        CanboatPGNs.RateOfTurn.sid.write(sid.map(Double.init), into: &w)
        CanboatPGNs.RateOfTurn.rate.write(rate, into: &w)
        return N2KPayload(w.bytes)
    }
}

extension RateOfTurn {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let r = self
        return [("sid", .integer(r.sid)), ("rate", .number(r.rate))]
    }
}

public struct Attitude: Hashable, Sendable {
    public var sid: Int?
    public var yaw: Double?
    /// Bow up positive.
    public var pitch: Double?
    /// Starboard down positive (heel).
    public var roll: Double?

    public init(sid: Int? = nil, yaw: Double? = nil, pitch: Double?, roll: Double?) {
        self.sid = sid
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.Attitude
        sid = reader.integer(F.sid)
        yaw = reader.value(F.yaw)
        pitch = reader.value(F.pitch)
        roll = reader.value(F.roll)
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.Attitude
        var w = N2KWriter(count: 8)
        F.sid.write(sid.map(Double.init), into: &w)
        F.yaw.write(yaw, into: &w)
        F.pitch.write(pitch, into: &w)
        F.roll.write(roll, into: &w)
        return N2KPayload(w.bytes)
    }
}

extension Attitude {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let a = self
        return [
            ("sid", .integer(a.sid)), ("yaw", .number(a.yaw)), ("pitch", .number(a.pitch)), ("roll", .number(a.roll)),
        ]
    }
}

public struct MagneticVariation: Hashable, Sendable {
    public var sid: Int?
    /// The source of the variation (canboat's MAGNETIC_VARIATION: 0 manual, 1 chart, 2 table, 3 calculated, 4 WMM...).
    public var source: Int?
    /// Days since 1970 the value is for.
    public var ageOfService: Int?
    /// East positive.
    public var variation: Double?

    public init(sid: Int? = nil, source: Int? = nil, ageOfService: Int? = nil, variation: Double?) {
        self.sid = sid
        self.source = source
        self.ageOfService = ageOfService
        self.variation = variation
    }

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.MagneticVariation
        sid = reader.integer(F.sid)
        source = reader.integer(F.source)
        ageOfService = reader.integer(F.ageOfService)
        variation = reader.value(F.variation)
    }
}

extension MagneticVariation {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let v = self
        return [
            ("sid", .integer(v.sid)), ("source", .integer(v.source)), ("ageOfService", .integer(v.ageOfService)),
            ("variation", .number(v.variation)),
        ]
    }
}
