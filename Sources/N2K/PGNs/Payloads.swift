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
