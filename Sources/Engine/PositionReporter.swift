import Marine
import NMEA

/// RMC, GGA and VTG of the gateway's position, as a GNSS receiver would send them, and the UTC clock the other
/// sentences carry.
///
/// - Each fix goes out once per kind, never twice: a kind sends the newest fix whose UTC is at least its interval
///   after the last one it sent (50 ms of slack), so fixes at 1 Hz give every second once, 5 Hz fixes with a 1 s
///   interval every fifth, and a late tick neither repeats nor skips a second.
/// - When the position goes stale (gpsd stopped, the GPS lost its fix), with ``StaleBehavior/invalid`` RMC goes out
///   with status `V`, GGA with quality 0 and VTG with mode `N`, empty fields, on the running clock, every interval;
///   with ``StaleBehavior/silent`` nothing goes out.
/// - The clock: UTC learnt from fixes that carry a date (RMC, gpsd) as an offset to engine time, so BWC, BWR and
///   ALR carry the same UTC as RMC and GGA, and the clock runs on smoothly through a gap in fixes.
struct PositionReporter: Sendable {
    /// UNIX seconds minus engine time, from the last fix with date and time.
    private(set) var clock: Double?
    /// Per kind (RMC, GGA, VTG): the UTC (or receive time) of the fix last sent, and when the next invalid one is due.
    private var lastSent: [Double?] = [nil, nil, nil]
    private var nextInvalid: [Double] = [-.infinity, -.infinity, -.infinity]

    /// Learns the clock from a fix as it arrives.
    mutating func learn(_ fix: Fix, at time: Double) {
        guard let date = fix.date, let utc = fix.utc else { return }
        clock = Double(date.daysSinceEpoch) * 86_400 + utc.secondsOfDay - time
    }

    /// UNIX seconds at engine time `time`, when the clock is known.
    func unixTime(at time: Double) -> Double? { clock.map { time + $0 } }

    /// The sentence of `kind` for this tick, or nil when there is nothing new to say.
    mutating func sentence(
        _ kind: ComputedKind, fix: Observation<Fix>?, values: InstrumentValues, interval: Double,
        configuration: EngineConfiguration, at now: Double
    ) -> Sentence? {
        let slot = kind == .positionRMC ? 0 : kind == .positionGGA ? 1 : 2
        guard let fix else {
            guard configuration.staleBehavior == .invalid, lastSent[slot] != nil, now >= nextInvalid[slot] else {
                return nil
            }
            let due = nextInvalid[slot] + interval
            nextInvalid[slot] = due > now ? due : now + interval
            return invalid(kind, values: values, at: now, talker: configuration.talker)
        }
        nextInvalid[slot] = now + interval
        // The fix's own UTC when it has one: exact, free of the jitter of its arrival.
        let stamp = fix.value.utc.map { Double($0.millisecondsOfDay) / 1000 } ?? fix.time
        if let last = lastSent[slot] {
            var gap = stamp - last
            if gap < -43_200 { gap += 86_400 }  // midnight
            guard gap >= interval - (fix.value.utc == nil ? interval / 2 : 0.05) else { return nil }
        }
        lastSent[slot] = stamp
        return valid(kind, fix, values: values, talker: configuration.talker)
    }

    /// The date of a fix: its own, or the learnt clock's on the fix's time of day.
    private func date(of fix: Observation<Fix>) -> UTCDate? {
        if let date = fix.value.date { return date }
        guard let unix = unixTime(at: fix.time) else { return nil }
        guard let utc = fix.value.utc else { return UTCDate(unixTime: unix) }
        // A fix just before midnight read just after it (or the reverse) belongs to its own day.
        let ofDay = UTCTime(secondsOfDay: unix).secondsOfDay
        let shift = utc.secondsOfDay - ofDay > 43_200 ? -86_400.0 : ofDay - utc.secondsOfDay > 43_200 ? 86_400 : 0
        return UTCDate(unixTime: unix + shift)
    }

    private func valid(_ kind: ComputedKind, _ fix: Observation<Fix>, values: InstrumentValues, talker: Talker)
        -> Sentence?
    {
        let position = fix.value
        let knots = values.speedOverGround.map { Units.knots(metresPerSecond: $0) }
        switch kind {
        case .positionRMC:
            return try? RMC(
                time: position.utc ?? values.utc, isValid: true, latitude: position.point.latitude,
                longitude: position.point.longitude, speedOverGround: knots, courseOverGround: values.courseOverGround,
                date: date(of: fix), magneticVariation: values.variation, mode: position.mode ?? .autonomous
            ).encode(talker: talker)
        case .positionGGA:
            return try? GGA(
                time: position.utc ?? values.utc, latitude: position.point.latitude,
                longitude: position.point.longitude, quality: (position.mode ?? .autonomous).ggaQuality,
                satellites: position.satellites, horizontalDilution: position.horizontalDilution,
                altitude: position.altitude, geoidSeparation: position.geoidSeparation
            ).encode(talker: talker)
        default:
            return try? VTG(
                courseTrue: values.courseOverGround,
                courseMagnetic: values.courseOverGround.flatMap { c in
                    values.variation.map { Heading.magnetic(true: c, variation: $0) }
                },
                speedKnots: knots, speedKilometresPerHour: knots.map { $0 * 1.852 }, mode: position.mode ?? .autonomous
            ).encode(talker: talker)
        }
    }

    /// What a receiver without a fix sends: status `V`, quality 0, mode `N`, the time when the clock is known.
    private func invalid(_ kind: ComputedKind, values: InstrumentValues, at now: Double, talker: Talker) -> Sentence? {
        let unix = unixTime(at: now)
        switch kind {
        case .positionRMC:
            return try? RMC(
                time: values.utc, isValid: false, latitude: nil, longitude: nil, speedOverGround: nil,
                courseOverGround: nil, date: unix.map { UTCDate(unixTime: $0) },
                magneticVariation: nil, mode: .notValid
            ).encode(talker: talker)
        case .positionGGA:
            return try? GGA(time: values.utc, latitude: nil, longitude: nil, quality: 0).encode(talker: talker)
        default:
            return try? VTG(
                courseTrue: nil, courseMagnetic: nil, speedKnots: nil, speedKilometresPerHour: nil, mode: .notValid
            ).encode(talker: talker)
        }
    }

}
