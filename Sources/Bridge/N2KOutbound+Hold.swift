import Engine
import Marine
import N2K
import NMEA

/// What conversions send: AIS, transducers, values held and repeated, the position merged, the clock.
extension N2KOutbound {
    /// A whole AIS message from an 0183 receiver (its fragments put together by the shell).
    public mutating func ais(_ report: AISReport, at time: Double, _ emit: (Outgoing) -> Void) {
        guard settings.convert.contains(.ais), let (pgn, payload) = AISConversion.message(report) else { return }
        converted += 1
        emit(Outgoing(pgn: pgn, payload: payload))
    }

    mutating func transducers(_ xdr: XDR, at time: Double, _ emit: (Outgoing) -> Void) {
        let c = settings.convert
        var roll: Double?
        var pitch: Double?
        for m in xdr.measurements {
            if let axis = m.attitudeAxis, let value = m.value {
                if axis == .roll { roll = value } else { pitch = value }
            } else if c.contains(.environment), let pascals = m.barometricPressure {
                hold(130314 &* 8, Environment(sid: sid, pressure: pascals).payload, pgn: 130314, at: time, emit)
            } else if c.contains(.environment), m.type == UInt8(ascii: "C"), let value = m.value,
                m.unit == nil || m.unit == UInt8(ascii: "C"), let name = m.name, Self.isAir(name)
            {
                hold(
                    130312 &* 8 &+ 1, Environment(sid: sid, temperature: value + 273.15, source: 1).payload,
                    pgn: 130312, at: time, emit)
            } else if c.contains(.environment), m.type == UInt8(ascii: "H"), let value = m.value {
                hold(130313, Environment(sid: sid, humidity: value).payload, at: time, emit)
            }
        }
        if c.contains(.attitude), roll != nil || pitch != nil {
            hold(
                127257,
                N2K.Attitude(sid: sid, pitch: pitch.map(Angle.radians), roll: roll.map(Angle.radians)).payload,
                at: time, emit)
        }
    }

    /// An air temperature's transducer name (`AirTemp`, `AIR`, `ENV_OUTAIR_T`, `TempAir`).
    static func isAir(_ name: String) -> Bool {
        let upper = Array(name.utf8).map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }
        let air = Array("AIR".utf8)
        guard upper.count >= 3 else { return false }
        for start in 0...(upper.count - 3) where Array(upper[start..<(start + 3)]) == air { return true }
        return false
    }

    /// Sent now and kept, to be repeated at its PGN's interval (a second at least) until the hold time is gone.
    mutating func hold(
        _ key: UInt32, _ payload: N2KPayload, pgn: UInt32? = nil, at time: Double, _ emit: (Outgoing) -> Void
    ) {
        let pgn = pgn ?? key
        let message = Outgoing(pgn: pgn, payload: payload)
        held[key] = Held(message: message, received: time, sent: time, interval: max(PGNCatalog.interval(pgn) ?? 1, 1))
        converted += 1
        emit(message)
    }

    mutating func position(
        at time: Double, _ emit: (Outgoing) -> Void, _ update: (inout PendingPosition) -> Void
    ) {
        var current = pending ?? PendingPosition(opened: time)
        update(&current)
        pending = current
        if settings.merge <= 0 { flushPosition(at: time, force: true, emit) }
    }

    /// The merged position out, once its window is over (or at once when `force`).
    mutating func flushPosition(at time: Double, force: Bool, _ emit: (Outgoing) -> Void) {
        guard let p = pending, force || time - p.opened >= settings.merge else { return }
        pending = nil
        sid = (sid + 1) % 253
        if let latitude = p.latitude, let longitude = p.longitude {
            hold(129025, PositionRapid(latitude: latitude, longitude: longitude).payload, at: time, emit)
        }
        if p.course != nil || p.speed != nil {
            hold(
                129026,
                CourseOverGround(
                    sid: sid, reference: 0, course: p.course.map(Angle.radians),
                    speed: p.speed.map { Units.metresPerSecond(knots: $0) }
                ).payload, at: time, emit)
        }
        let seconds = p.utc.map { Double($0.millisecondsOfDay) / 1000 }
        if let latitude = p.latitude, let longitude = p.longitude {
            let gga = p.gga
            hold(
                129029,
                GNSSPosition(
                    sid: sid, date: p.date?.daysSinceEpoch, time: seconds, latitude: latitude, longitude: longitude,
                    altitude: gga?.altitude, method: gga?.quality ?? 1, satellites: gga?.satellites,
                    hdop: gga?.horizontalDilution, geoidalSeparation: gga?.geoidSeparation
                ).payload, at: time, emit)
        }
        if let date = p.date, let seconds {
            hold(
                126992, SystemTime(sid: sid, unixTime: Double(date.daysSinceEpoch) * 86_400 + seconds).payload,
                at: time, emit)
        }
    }

    /// The clock: a merged position whose window is over, and the held values due again (or forgotten).
    public mutating func tick(at time: Double, _ emit: (Outgoing) -> Void) {
        flushPosition(at: time, force: false, emit)
        guard !held.isEmpty else { return }
        for key in held.keys.sorted() {
            guard var entry = held[key] else { continue }
            if time - entry.received > settings.hold {
                held[key] = nil
                continue
            }
            if time - entry.sent >= entry.interval - 0.001 {
                entry.sent = time
                held[key] = entry
                emit(entry.message)
            }
        }
    }
}
