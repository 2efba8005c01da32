/// The water: 128259 speed, 128267 water depth, 128275 distance log.

/// 128259 Speed, 128267 Water Depth, 128275 Distance Log, 129025 Position Rapid Update, 129026 COG & SOG Rapid Update,
/// 129029 GNSS Position Data, 129291 Set & Drift, 126992 System Time. SI units: m/s, metres, radians, seconds.
public struct Speed: Hashable, Sendable {
    public var sid: Int?
    public var throughWater: Double?
    public var overGround: Double?

    public init(sid: Int? = nil, throughWater: Double?, overGround: Double? = nil) {
        self.sid = sid
        self.throughWater = throughWater
        self.overGround = overGround
    }

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.Speed
        sid = reader.integer(F.sid)
        throughWater = reader.value(F.speedWaterReferenced)
        overGround = reader.value(F.speedGroundReferenced)
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.Speed
        var w = N2KWriter(count: 8)
        F.sid.write(sid.map(Double.init), into: &w)
        F.speedWaterReferenced.write(throughWater, into: &w)
        F.speedGroundReferenced.write(overGround, into: &w)
        F.speedWaterReferencedType.writeRaw(0, into: &w)  // paddle wheel
        return N2KPayload(w.bytes)
    }
}

extension Speed {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let s = self
        return [
            ("sid", .integer(s.sid)), ("speedWaterReferenced", .number(s.throughWater)),
            ("speedGroundReferenced", .number(s.overGround)),
        ]
    }
}

public struct WaterDepth: Hashable, Sendable {
    public var sid: Int?
    /// Below the transducer, metres.
    public var depth: Double?
    /// The transducer's offset: positive to the waterline, negative to the keel.
    public var offset: Double?
    public var range: Double?

    public init(sid: Int? = nil, depth: Double?, offset: Double? = nil) {
        self.sid = sid
        self.depth = depth
        self.offset = offset
    }

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.WaterDepth
        sid = reader.integer(F.sid)
        depth = reader.value(F.depth)
        offset = reader.value(F.offset)
        range = reader.value(F.range)
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.WaterDepth
        var w = N2KWriter(count: 8)
        F.sid.write(sid.map(Double.init), into: &w)
        F.depth.write(depth, into: &w)
        F.offset.write(offset, into: &w)
        F.range.write(range, into: &w)
        return N2KPayload(w.bytes)
    }
}

extension WaterDepth {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let d = self
        return [
            ("sid", .integer(d.sid)), ("depth", .number(d.depth)), ("offset", .number(d.offset)),
            ("range", .number(d.range)),
        ]
    }
}

public struct DistanceLog: Hashable, Sendable {
    public var date: Int?
    public var time: Double?
    /// Metres.
    public var log: Double?
    public var tripLog: Double?

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.DistanceLog
        date = reader.integer(F.date)
        time = reader.value(F.time)
        log = reader.value(F.log)
        tripLog = reader.value(F.tripLog)
    }
}

/// The payloads of the PGNs Telltale writes for an 0183 instrument (``DistanceLog``, ``Rudder``, ``SystemTime``),
/// beside their readers.
extension DistanceLog {
    /// Metres, from the time of day and the day they were read (nil: not available).
    public init(log: Double?, tripLog: Double?, date: Int? = nil, time: Double? = nil) {
        self.log = log
        self.tripLog = tripLog
        self.date = date
        self.time = time
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.DistanceLog
        var w = N2KWriter(count: 14)
        F.date.write(date.map(Double.init), into: &w)
        F.time.write(time, into: &w)
        F.log.write(log, into: &w)
        F.tripLog.write(tripLog, into: &w)
        return N2KPayload(w.bytes)
    }
}

extension DistanceLog {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let l = self
        return [
            ("date", .integer(l.date)), ("time", .number(l.time)), ("log", .number(l.log)),
            ("tripLog", .number(l.tripLog)),
        ]
    }
}
