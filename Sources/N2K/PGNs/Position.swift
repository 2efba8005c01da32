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

public struct PositionRapid: Hashable, Sendable {
    public var latitude: Double?
    public var longitude: Double?

    public init(latitude: Double?, longitude: Double?) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public init(_ reader: inout N2KReader) {
        latitude = reader.value(CanboatPGNs.PositionRapidUpdate.latitude)
        longitude = reader.value(CanboatPGNs.PositionRapidUpdate.longitude)
    }

    public var payload: N2KPayload {
        var w = N2KWriter(count: 8)
        CanboatPGNs.PositionRapidUpdate.latitude.write(latitude, into: &w)
        CanboatPGNs.PositionRapidUpdate.longitude.write(longitude, into: &w)
        return N2KPayload(w.bytes)
    }
}

public struct CourseOverGround: Hashable, Sendable {
    public var sid: Int?
    /// 0 true, 1 magnetic.
    public var reference: Int?
    public var course: Double?
    public var speed: Double?

    public init(sid: Int? = nil, reference: Int? = 0, course: Double?, speed: Double?) {
        self.sid = sid
        self.reference = reference
        self.course = course
        self.speed = speed
    }

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.CogSogRapidUpdate
        sid = reader.integer(F.sid)
        reference = reader.integer(F.cogReference)
        course = reader.value(F.cog)
        speed = reader.value(F.sog)
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.CogSogRapidUpdate
        var w = N2KWriter(count: 8)
        F.sid.write(sid.map(Double.init), into: &w)
        F.cogReference.writeRaw(Int64(reference ?? 3), into: &w)
        F.cog.write(course, into: &w)
        F.sog.write(speed, into: &w)
        return N2KPayload(w.bytes)
    }
}

public struct GNSSPosition: Hashable, Sendable {
    public var sid: Int?
    /// Days since 1970, and seconds since midnight UTC.
    public var date: Int?
    public var time: Double?
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    /// canboat's GNS_METHOD: 0 no fix, 1 GNSS fix, 2 DGNSS, 3 precise, 4 RTK fixed, 5 RTK float, 6 estimated...
    public var method: Int?
    public var satellites: Int?
    public var hdop: Double?
    public var pdop: Double?
    public var geoidalSeparation: Double?

    public init(
        sid: Int? = nil, date: Int?, time: Double?, latitude: Double?, longitude: Double?, altitude: Double? = nil,
        method: Int? = 1, satellites: Int? = nil, hdop: Double? = nil, geoidalSeparation: Double? = nil
    ) {
        self.sid = sid
        self.date = date
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.method = method
        self.satellites = satellites
        self.hdop = hdop
        self.geoidalSeparation = geoidalSeparation
    }

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.GnssPositionData
        sid = reader.integer(F.sid)
        date = reader.integer(F.date)
        time = reader.value(F.time)
        latitude = reader.value(F.latitude)
        longitude = reader.value(F.longitude)
        altitude = reader.value(F.altitude)
        method = reader.integer(F.method)
        satellites = reader.integer(F.numberOfSvs)
        hdop = reader.value(F.hdop)
        pdop = reader.value(F.pdop)
        geoidalSeparation = reader.value(F.geoidalSeparation)
    }

    /// UNIX seconds of the fix, when it has a date and a time.
    public var unixTime: Double? {
        guard let date, let time else { return nil }
        return Double(date) * 86_400 + time
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.GnssPositionData
        var w = N2KWriter(count: 43)
        F.sid.write(sid.map(Double.init), into: &w)
        F.date.write(date.map(Double.init), into: &w)
        F.time.write(time, into: &w)
        F.latitude.write(latitude, into: &w)
        F.longitude.write(longitude, into: &w)
        F.altitude.write(altitude, into: &w)
        F.gnssType.writeRaw(0, into: &w)
        F.method.writeRaw(Int64(method ?? 15), into: &w)
        F.integrity.writeRaw(0, into: &w)
        F.numberOfSvs.write(satellites.map(Double.init), into: &w)
        F.hdop.write(hdop, into: &w)
        F.pdop.write(nil, into: &w)
        F.geoidalSeparation.write(geoidalSeparation, into: &w)
        F.referenceStations.writeRaw(0, into: &w)
        return N2KPayload(w.bytes.prefix(43))
    }
}

public struct SetAndDrift: Hashable, Sendable {
    public var sid: Int?
    public var set: Double?
    public var drift: Double?

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.SetDriftRapidUpdate
        sid = reader.integer(F.sid)
        set = reader.value(F.set)
        drift = reader.value(F.drift)
    }
}

public struct SystemTime: Hashable, Sendable {
    public var sid: Int?
    public var source: Int?
    public var date: Int?
    public var time: Double?

    public init(_ reader: inout N2KReader) {
        typealias F = CanboatPGNs.SystemTime
        sid = reader.integer(F.sid)
        source = reader.integer(F.source)
        date = reader.integer(F.date)
        time = reader.value(F.time)
    }

    /// UNIX seconds.
    public var unixTime: Double? {
        guard let date, let time else { return nil }
        return Double(date) * 86_400 + time
    }
}
