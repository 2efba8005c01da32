/// 130306 Wind Data, and the environment: 130310 (obsolete) and 130311 Environmental Parameters, 130312 Temperature,
/// 130313 Humidity, 130314 Actual Pressure. Wind speed in m/s, angles in radians 0 to 2π clockwise from the bow (or
/// from north for the ground- and true-north-referenced), temperatures in kelvin, pressures in pascals.
public struct WindData: Hashable, Sendable {
    /// canboat's WIND_REFERENCE.
    public enum Reference: Int, Sendable {
        case trueNorth = 0
        case magneticNorth = 1
        case apparent = 2
        case trueBoat = 3
        case trueWater = 4
    }

    public var sid: Int?
    public var speed: Double?
    public var angle: Double?
    public var reference: Reference?

    public init(sid: Int? = nil, speed: Double?, angle: Double?, reference: Reference) {
        self.sid = sid
        self.speed = speed
        self.angle = angle
        self.reference = reference
    }

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.WindData
        sid = reader.integer(F.sid)
        speed = reader.value(F.windSpeed)
        angle = reader.value(F.windAngle)
        reference = reader.integer(F.reference).flatMap(Reference.init(rawValue:))
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.WindData
        var w = N2KWriter(count: 8)
        F.sid.write(sid.map(Double.init), into: &w)
        F.windSpeed.write(speed, into: &w)
        // An angle is sent as 0 to 2π.
        F.windAngle.write(angle.map { $0 < 0 ? $0 + 2 * Double.pi : $0 }, into: &w)
        F.reference.writeRaw(Int64(reference?.rawValue ?? 7), into: &w)
        return N2KPayload(w.bytes)
    }
}

extension WindData {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let w = self
        return [
            ("sid", .integer(w.sid)), ("windSpeed", .number(w.speed)), ("windAngle", .number(w.angle)),
            ("reference", .integer(w.reference?.rawValue)),
        ]
    }
}
