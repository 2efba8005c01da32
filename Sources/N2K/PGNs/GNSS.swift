/// Position and time: 129025 position (rapid), 129026 COG and SOG (rapid), 129029 GNSS position data, 129291 set and
/// drift (rapid), 126992 system time.

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

extension PositionRapid {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let p = self
        return [("latitude", .number(p.latitude)), ("longitude", .number(p.longitude))]
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

extension CourseOverGround {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let c = self
        return [
            ("sid", .integer(c.sid)), ("cogReference", .integer(c.reference)), ("cog", .number(c.course)),
            ("sog", .number(c.speed)),
        ]
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

extension GNSSPosition {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let g = self
        return [
            ("sid", .integer(g.sid)), ("date", .integer(g.date)), ("time", .number(g.time)),
            ("latitude", .number(g.latitude)),
            ("longitude", .number(g.longitude)), ("altitude", .number(g.altitude)), ("method", .integer(g.method)),
            ("numberOfSvs", .integer(g.satellites)), ("hdop", .number(g.hdop)), ("pdop", .number(g.pdop)),
            ("geoidalSeparation", .number(g.geoidalSeparation)),
        ]
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

extension SetAndDrift {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let s = self
        return [("sid", .integer(s.sid)), ("set", .number(s.set)), ("drift", .number(s.drift))]
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

extension SystemTime {
    /// UNIX seconds, from a GNSS (canboat's SYSTEM_TIME source 0).
    public init(sid: Int? = nil, unixTime: Double) {
        self.sid = sid
        source = 0
        let days = (unixTime / 86_400).rounded(.down)
        date = Int(days)
        time = unixTime - days * 86_400
    }

    public var payload: N2KPayload {
        typealias F = CanboatPGNs.SystemTime
        var w = N2KWriter(count: 8)
        F.sid.write(sid.map(Double.init), into: &w)
        F.source.writeRaw(Int64(source ?? 0), into: &w)
        F.date.write(date.map(Double.init), into: &w)
        F.time.write(time, into: &w)
        return N2KPayload(w.bytes)
    }
}

extension SystemTime {
    /// Its fields under canboat's ids, in canboat's order and units (``N2KValue/fields``).
    public var fields: [(id: String, value: N2KFieldValue)] {
        let t = self
        return [
            ("sid", .integer(t.sid)), ("source", .integer(t.source)), ("date", .integer(t.date)),
            ("time", .number(t.time)),
        ]
    }
}
