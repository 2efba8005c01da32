import Marine
import N2K
import NMEA

/// NMEA 2000 into NMEA 0183: each message the bus carries that the engine reads becomes the 0183 sentence an 0183
/// instrument would have sent, so a value from the bus goes the one way every value goes (decoded once by the
/// router, judged against its physical range, to the engine, to Signal K, to the 0183 outputs that pass it on).
/// Sans-I/O: a message and the time in, sentences out. The mapping is `docs/nmea2000.md`'s table.
///
/// Some sentences are made of several messages, as the commercial gateways make them: RMC from 129025's position,
/// 129026's course and speed and the time of 126992 or 129029 (once a second at most, per sender, when the course
/// comes; from the position alone for a GPS that sends no course); HDG's variation
/// from 127258 when 127250 has none; RMB from 129284 with 129283's cross-track error and the waypoint names of 129285.
/// A part older than `partAge` seconds is left out (empty fields), never sent as if current.
///
/// Resolution: positions keep five decimals of a minute (2 cm), headings and angles one decimal of a degree, speeds
/// two decimals of a knot: finer than the sensors, coarser than NMEA 2000's own encodings.
public struct N2KInbound: Sendable {
    public struct Settings: Sendable {
        /// Seconds between two RMC of one sender (129025 comes ten times a second).
        public var positionInterval = 1.0
        /// Seconds after which a part of a merged sentence (a course, a time, a variation) is too old to use.
        public var partAge = 3.0

        public init() {}
    }

    /// What one sender last said that another message needs.
    struct Sender: Sendable {
        var latitude: Double?
        var longitude: Double?
        var positionAt = -Double.infinity
        var course: Double?
        var speed: Double?
        var courseAt = -Double.infinity
        /// UNIX seconds minus engine seconds, from this sender's clock.
        var clockOffset: Double?
        var clockAt = -Double.infinity
        var lastRMC = -Double.infinity
    }

    public let settings: Settings
    var senders: [UInt8: Sender] = [:]
    var variation: Double?
    var variationAt = -Double.infinity
    var crossTrack: Double?
    var crossTrackAt = -Double.infinity
    /// The route's waypoint names by number (129285), for RMB's identifiers; at most 256 kept.
    var waypointNames: [Int: String] = [:]
    /// Fields the senders marked out of range.
    public private(set) var outOfRange = 0
    /// Messages of a PGN this converter reads that gave no sentence (every value not available).
    public private(set) var empty = 0
    public private(set) var converted = 0

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Whether messages of `pgn` are read here.
    public static func reads(_ pgn: UInt32) -> Bool {
        switch pgn {
        case 127250, 127251, 127257, 127258, 127245, 128259, 128267, 128275, 129025, 129026, 129029, 126992, 129283,
            129284, 129285, 130306, 130310, 130311, 130312, 130313, 130314, 130316, 129038, 129039, 129040, 129041,
            129794, 129809, 129810:
            return true
        default:
            return false
        }
    }

    /// The sentences `message` makes at `time` (engine seconds), each handed to `emit`.
    public mutating func convert(_ message: N2KMessage, at time: Double, _ emit: (Sentence) -> Void) {
        guard Self.reads(message.pgn) else { return }
        let (value, outOfRange) = N2KValue.decode(message)
        self.outOfRange += outOfRange
        var made = 0
        func send(_ sentence: Sentence?) {
            guard let sentence else { return }
            made += 1
            emit(sentence)
        }
        let source = message.source
        switch value {
        case .heading(let heading): send(self.heading(heading, at: time))
        case .rateOfTurn(let rate):
            send(rate.rate.flatMap { try? ROT(rate: Angle.degrees($0) * 60, isValid: true).encode(talker: "TI") })
        case .attitude(let attitude): send(Self.attitude(attitude))
        case .variation(let variation):
            if let value = variation.variation {
                self.variation = Angle.degrees(value)
                variationAt = time
                made += 1
            }
        case .rudder(let rudder):
            send(
                rudder.position.flatMap {
                    try? RSA(starboardAngle: Angle.degrees($0), starboardValid: true).encode(talker: "II")
                })
        case .speed(let speed):
            send(
                speed.throughWater.flatMap {
                    let knots = Units.knots(metresPerSecond: $0)
                    return try? VHW(speedKnots: knots, speedKilometresPerHour: $0 * 3.6).encode(talker: "VW")
                })
        case .depth(let depth):
            send(
                depth.depth.flatMap {
                    try? DPT(depth: $0, offset: depth.offset, maximumRange: depth.range).encode(talker: "SD")
                })
        case .log(let log):
            guard log.log != nil || log.tripLog != nil else { break }
            send(
                try? VLW(
                    totalWater: log.log.map { $0 / Units.metresPerNauticalMile },
                    tripWater: log.tripLog.map { $0 / Units.metresPerNauticalMile }
                ).encode(talker: "VW"))
        case .position(let position):
            senders[source, default: Sender()].latitude = position.latitude
            senders[source, default: Sender()].longitude = position.longitude
            senders[source, default: Sender()].positionAt = time
            // A GPS that sends no course (129026) has its RMC made from the position alone.
            if time - senders[source, default: Sender()].courseAt > settings.partAge {
                send(rmc(from: source, at: time))
            }
        case .course(let course):
            var sender = senders[source, default: Sender()]
            sender.speed = course.speed
            sender.course = course.course.flatMap { cog in
                if course.reference == 0 { return Angle.degrees(cog) }
                guard course.reference == 1, let variation = currentVariation(at: time) else { return nil }
                return Angle.direction(Angle.degrees(cog) + variation)
            }
            sender.courseAt = time
            senders[source] = sender
            made += 1
            // RMC when the course comes (129026 follows 129025 as the gateways send them): the position of this
            // moment with its own course and speed, not the last second's.
            if time - sender.positionAt <= settings.partAge { send(rmc(from: source, at: time)) }
        case .gnss(let gnss):
            if let unix = gnss.unixTime { setClock(unix, from: source, at: time) }
            if let latitude = gnss.latitude, let longitude = gnss.longitude, (gnss.method ?? 0) > 0 {
                senders[source, default: Sender()].latitude = latitude
                senders[source, default: Sender()].longitude = longitude
                senders[source, default: Sender()].positionAt = time
            }
            send(Self.gga(gnss))
            if time - senders[source, default: Sender()].courseAt > settings.partAge {
                send(rmc(from: source, at: time))
            }
        case .systemTime(let system):
            if let unix = system.unixTime {
                setClock(unix, from: source, at: time)
                send(Self.zda(unix))
            }
        case .crossTrack(let xte):
            crossTrack = xte.xte
            crossTrackAt = time
            send(Self.xte(xte))
        case .navigation(let navigation): send(rmb(navigation, at: time))
        case .route(let route):
            for waypoint in route.waypoints {
                guard let id = waypoint.id, !waypoint.name.isEmpty else { continue }
                if waypointNames[id] == nil && waypointNames.count >= 256 { continue }
                waypointNames[id] = waypoint.name
            }
            made += 1
        case .wind(let wind): send(self.wind(wind, at: time))
        case .environment(let environment):
            for sentence in Self.environment(environment) { send(sentence) }
        case .aisPosition(let report):
            for sentence in AISConversion.sentences(report) { send(sentence) }
        case .aisStatic(let report):
            for sentence in AISConversion.sentences(report) { send(sentence) }
        default:
            break
        }
        if made == 0 { empty += 1 } else { converted += 1 }
    }

    /// Forgets a sender (it left the bus, or its address went to another device).
    public mutating func forget(_ source: UInt8) { senders[source] = nil }

    // MARK: The sentences

    private func currentVariation(at time: Double) -> Double? {
        time - variationAt <= max(settings.partAge, 60) ? variation : nil
    }

    private mutating func heading(_ heading: VesselHeading, at time: Double) -> Sentence? {
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

    private mutating func setClock(_ unix: Double, from source: UInt8, at time: Double) {
        senders[source, default: Sender()].clockOffset = unix - time
        senders[source, default: Sender()].clockAt = time
    }

    /// The UTC instant at `time` by the clock of `source` (or of any sender whose clock is current).
    private func unixTime(from source: UInt8, at time: Double) -> Double? {
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
    private mutating func rmc(from source: UInt8, at time: Double) -> Sentence? {
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

    private func rmb(_ navigation: NavigationData, at time: Double) -> Sentence? {
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

    private func wind(_ wind: WindData, at time: Double) -> Sentence? {
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
