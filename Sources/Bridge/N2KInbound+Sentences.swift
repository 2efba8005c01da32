import Marine
import N2K
import NMEA

/// The sentences a message of the bus makes, as an 0183 instrument would have sent them.
extension N2KInbound {
    func currentVariation(at time: Double) -> Double? {
        time - variationAt <= max(settings.partAge, 60) ? variation : nil
    }

    mutating func heading(_ heading: VesselHeading, at time: Double) -> Sentence? {
        guard let value = heading.heading.map(Angle.degrees) else { return nil }
        if heading.reference == .trueNorth { return try? HDT(heading: value).encode(talker: "HE") }
        let variation = heading.variation.map(Angle.degrees) ?? currentVariation(at: time)
        return try? HDG(
            sensorHeading: value, deviation: heading.deviation.map(Angle.degrees), variation: variation
        ).encode(talker: "HC")
    }

    /// Heel (ROLL, starboard down positive, as 127257's roll) and pitch (PTCH, bow up positive).
    static func attitude(_ attitude: N2K.Attitude) -> Sentence? {
        var measurements: [XDR.Measurement] = []
        if let roll = attitude.roll { measurements.append(.angle(Angle.degrees(roll), name: "ROLL")) }
        if let pitch = attitude.pitch { measurements.append(.angle(Angle.degrees(pitch), name: "PTCH")) }
        guard !measurements.isEmpty else { return nil }
        return try? XDR(measurements).encode(talker: "YX")
    }

    mutating func setClock(_ unix: Double, from source: UInt8, at time: Double) {
        senders[source, default: Sender()].clockOffset = unix - time
        senders[source, default: Sender()].clockAt = time
    }

    /// The UTC instant at `time` by the clock of `source` (or of any sender whose clock is current).
    func unixTime(from source: UInt8, at time: Double) -> Double? {
        if let own = senders[source], let offset = own.clockOffset, time - own.clockAt <= settings.partAge {
            return time + offset
        }
        var best: (at: Double, offset: Double)?
        for sender in senders.values {
            guard let offset = sender.clockOffset, time - sender.clockAt <= settings.partAge else { continue }
            if best == nil || sender.clockAt > best!.at { best = (sender.clockAt, offset) }
        }
        return best.map { time + $0.offset }
    }

    /// RMC of `source`'s position, course and speed, and the time, once `positionInterval` has gone by.
    mutating func rmc(from source: UInt8, at time: Double) -> Sentence? {
        guard var sender = senders[source], let latitude = sender.latitude, let longitude = sender.longitude,
            time - sender.lastRMC >= settings.positionInterval - 0.001
        else { return nil }
        sender.lastRMC = time
        senders[source] = sender
        let fresh = time - sender.courseAt <= settings.partAge
        let unix = unixTime(from: source, at: time)
        var rmc = RMC(
            time: unix.map { UTCTime(secondsOfDay: $0) }, isValid: true, latitude: latitude, longitude: longitude,
            speedOverGround: fresh ? sender.speed.map { Units.knots(metresPerSecond: $0) } : nil,
            courseOverGround: fresh ? sender.course : nil,
            date: unix.map { UTCDate(daysSinceEpoch: Int(($0 / 86_400).rounded(.down))) },
            magneticVariation: currentVariation(at: time), mode: .autonomous)
        rmc.minuteDecimals = 5
        return try? rmc.encode(talker: "GN")
    }

    static func gga(_ gnss: GNSSPosition) -> Sentence? {
        guard gnss.latitude != nil || gnss.method == 0 else { return nil }
        // canboat's GNS_METHOD to GGA's quality: the same numbers up to RTK (4, 5) and estimated (6).
        let quality = gnss.method.map { min($0, 8) }
        var gga = GGA(
            time: gnss.time.map { UTCTime(secondsOfDay: $0) }, latitude: gnss.latitude, longitude: gnss.longitude,
            quality: quality, satellites: gnss.satellites, horizontalDilution: gnss.hdop, altitude: gnss.altitude,
            geoidSeparation: gnss.geoidalSeparation)
        gga.minuteDecimals = 5
        return try? gga.encode(talker: "GN")
    }

    static func zda(_ unix: Double) -> Sentence? {
        let date = UTCDate(daysSinceEpoch: Int((unix / 86_400).rounded(.down)))
        return try? ZDA(
            time: UTCTime(secondsOfDay: unix), day: date.day, month: date.month, year: date.year, zoneHours: 0,
            zoneMinutes: 0
        ).encode(talker: "GN")
    }

    /// XTE: 129283 is positive right of the track, where the boat must steer left.
    static func xte(_ xte: CrossTrackError) -> Sentence? {
        guard let metres = xte.xte else { return nil }
        return try? XTE(
            status1: true, status2: true, magnitude: abs(metres) / Units.metresPerNauticalMile,
            steer: metres > 0 ? .left : .right, mode: .autonomous
        ).encode(talker: "IN")
    }

    func rmb(_ navigation: NavigationData, at time: Double) -> Sentence? {
        guard navigation.destinationLatitude != nil || navigation.distanceToWaypoint != nil else { return nil }
        let xte = time - crossTrackAt <= settings.partAge ? crossTrack : nil
        func name(_ number: Int?) -> String? {
            guard let number else { return nil }
            return waypointNames[number] ?? String(number)
        }
        // A magnetic bearing made true with the variation when it is known.
        var bearing = navigation.bearingToDestination.map(Angle.degrees)
        if navigation.bearingReference == 1 {
            bearing = bearing.flatMap { value in currentVariation(at: time).map { Angle.direction(value + $0) } }
        }
        return try? RMB(
            isValid: true, crossTrackError: xte.map { abs($0) / Units.metresPerNauticalMile },
            steer: xte.map { $0 > 0 ? .left : .right }, originID: name(navigation.originWaypoint),
            destinationID: name(navigation.destinationWaypoint),
            destinationLatitude: navigation.destinationLatitude, destinationLongitude: navigation.destinationLongitude,
            range: navigation.distanceToWaypoint.map { $0 / Units.metresPerNauticalMile }, bearingTrue: bearing,
            closingVelocity: navigation.closingVelocity.map { Units.knots(metresPerSecond: $0) },
            arrived: navigation.arrivalCircleEntered ?? false, mode: .autonomous
        ).encode(talker: "IN")
    }

    func wind(_ wind: WindData, at time: Double) -> Sentence? {
        guard let speed = wind.speed, let angle = wind.angle.map(Angle.degrees) else { return nil }
        let knots = Units.knots(metresPerSecond: speed)
        switch wind.reference {
        case .apparent:
            return try? MWV(
                angle: Angle.direction(angle), reference: .relative, speed: knots, unit: .knots, isValid: true
            )
            .encode(talker: "WI")
        case .trueBoat, .trueWater:
            return try? MWV(angle: Angle.direction(angle), reference: .true, speed: knots, unit: .knots, isValid: true)
                .encode(talker: "WI")
        case .trueNorth:
            let magnetic = currentVariation(at: time).map { Angle.direction(angle - $0) }
            return try? MWD(
                directionTrue: Angle.direction(angle), directionMagnetic: magnetic, speedKnots: knots,
                speedMetresPerSecond: speed
            ).encode(talker: "WI")
        case .magneticNorth:
            let direction = currentVariation(at: time).map { Angle.direction(angle + $0) }
            return try? MWD(
                directionTrue: direction, directionMagnetic: Angle.direction(angle), speedKnots: knots,
                speedMetresPerSecond: speed
            ).encode(talker: "WI")
        case nil:
            return nil
        }
    }

    /// Sea temperature as MTW; the outside air's temperature, the humidity and the atmospheric pressure as XDR (the
    /// names the engine and OpenCPN read: `AirTemp`, `Humidity`, `Barometer`). Other temperatures (a cabin, an
    /// engine room, a fridge) are not 0183 quantities the engine uses, and stay on the bus.
    static func environment(_ environment: Environment) -> [Sentence] {
        var out: [Sentence] = []
        var water = environment.waterTemperature
        var air = environment.airTemperature
        if let temperature = environment.temperature {
            switch (environment.kind, environment.source) {
            case (.parameters, 0), (.temperature, 0): water = temperature
            case (.parameters, 1), (.temperature, 1): air = temperature
            default: break
            }
        }
        if let water, let sentence = try? MTW(temperature: water - 273.15).encode(talker: "YX") {
            out.append(sentence)
        }
        var measurements: [XDR.Measurement] = []
        if let air {
            measurements.append(
                XDR.Measurement(
                    type: UInt8(ascii: "C"), value: air - 273.15, unit: UInt8(ascii: "C"), name: "AirTemp",
                    decimals: 1))
        }
        if let humidity = environment.humidity, environment.kind != .humidity || (environment.source ?? 1) <= 1 {
            measurements.append(
                XDR.Measurement(
                    type: UInt8(ascii: "H"), value: humidity, unit: UInt8(ascii: "P"), name: "Humidity", decimals: 1))
        }
        let atmospheric = environment.kind != .pressure || environment.source == 0
        if let pressure = environment.pressure, atmospheric {
            measurements.append(
                XDR.Measurement(
                    type: UInt8(ascii: "P"), value: pressure / 100_000, unit: UInt8(ascii: "B"), name: "Barometer",
                    decimals: 5))
        }
        if !measurements.isEmpty, let sentence = try? XDR(measurements).encode(talker: "WI") {
            out.append(sentence)
        }
        return out
    }
}
