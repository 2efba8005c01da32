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
        instrument(value, from: message.source, at: time, &made, emit)
        navigation(value, from: message.source, at: time, &made, emit)
        if made == 0 { empty += 1 } else { converted += 1 }
    }

    /// The instruments' values: heading, attitude, variation, rudder, speed, depth, log, wind, the environment, AIS.
    mutating func instrument(
        _ value: N2KValue, from source: UInt8, at time: Double, _ made: inout Int, _ emit: (Sentence) -> Void
    ) {
        func send(_ sentence: Sentence?) {
            guard let sentence else { return }
            made += 1
            emit(sentence)
        }
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
    }

    /// Position, course, time and the way to the waypoint: a sender's parts gathered into RMC, GGA, ZDA, XTE, RMB.
    mutating func navigation(
        _ value: N2KValue, from source: UInt8, at time: Double, _ made: inout Int, _ emit: (Sentence) -> Void
    ) {
        func send(_ sentence: Sentence?) {
            guard let sentence else { return }
            made += 1
            emit(sentence)
        }
        switch value {
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
        default:
            break
        }
    }

    /// Forgets a sender (it left the bus, or its address went to another device).
    public mutating func forget(_ source: UInt8) { senders[source] = nil }
}
