import Engine
import Marine
import N2K
import NMEA

/// What Telltale puts on the NMEA 2000 bus, sans-I/O: the engine's report and the 0183 sentences passed to the bus
/// in, with the time; messages (PGN, priority, payload) out, for the node to address and send.
///
/// - **Computed** (``Computed``), from each tick's report, at the intervals canboat's database gives, one SID for the
///   values of one tick: true wind (130306, boat-referenced, and ground-referenced to north where the engine knows
///   it), apparent wind, heel and pitch from the IMU (127257), the heading the engine uses (127250), and while a route
///   of the boat's own is followed the cross-track error (129283), the navigation data (129284) and the route
///   (129285, when it changes and every 10 s). A value whose source is this bus is never sent back to it; wind made
///   from the forecast never goes out (NMEA 2000 cannot say so); neither does guidance a plotter upstream gives.
/// - **Converted** (``Conversion``), from the 0183 sentences of the inputs the router passes to the bus: each sent when
///   it comes and repeated at its PGN's interval (a second at least) until `hold` seconds have gone by with nothing
///   newer (Actisense's rule: a plotter sees a value go when the instrument stops); RMC, GGA, GLL, VTG and ZDA that
///   come within `merge` seconds of one another make one position (129025, 129026, 129029, 126992), as Yacht
///   Devices' gateways merge them.
public struct N2KOutbound: Sendable {
    public enum Computed: String, CaseIterable, Hashable, Sendable {
        case apparentWind = "apparent-wind"
        case trueWind = "true-wind"
        case groundWind = "ground-wind"
        case attitude
        case heading
        case navigation
        case route
    }

    public enum Conversion: String, CaseIterable, Hashable, Sendable {
        case position, heading, wind, speed, depth, temperature, log, environment, ais, navigation, attitude
        case rateOfTurn = "rate-of-turn"
        case rudder

        /// What is converted unless the configuration says otherwise: what the engine does not send itself.
        public static let standard: Set<Conversion> = [
            .position, .speed, .depth, .temperature, .log, .environment, .ais, .rateOfTurn, .rudder,
        ]

        /// The 0183 formatters this conversion reads (for the router's address filter: `*RMC`...).
        public var formatters: [String] {
            switch self {
            case .position: ["RMC", "GGA", "GLL", "VTG", "ZDA"]
            case .heading: ["HDG", "HDM", "HDT"]
            case .wind: ["MWV", "MWD", "VWR", "VWT"]
            case .speed: ["VHW"]
            case .depth: ["DPT", "DBT"]
            case .temperature: ["MTW"]
            case .log: ["VLW"]
            case .environment: ["XDR", "MDA"]
            case .ais: ["VDM"]
            case .navigation: ["RMB", "XTE", "APB"]
            case .attitude: ["XDR"]
            case .rateOfTurn: ["ROT"]
            case .rudder: ["RSA"]
            }
        }
    }

    public struct Settings: Sendable {
        public var send: Set<Computed> = Set(Computed.allCases)
        public var convert: Set<Conversion> = Conversion.standard
        /// Seconds a converted value is repeated for when nothing newer comes.
        public var hold = 4.0
        /// Seconds within which RMC, GGA, GLL, VTG and ZDA make one position.
        public var merge = 0.05

        public init() {}
    }

    /// Whether the value the engine uses for a group came from this bus (then it is not sent back).
    public struct BusSources: Hashable, Sendable {
        public var wind = false
        public var heading = false
        public var attitude = false

        public init(wind: Bool = false, heading: Bool = false, attitude: Bool = false) {
            self.wind = wind
            self.heading = heading
            self.attitude = attitude
        }
    }

    /// One message to send, before the node gives it its source address.
    public struct Outgoing: Hashable, Sendable {
        public var pgn: UInt32
        public var priority: UInt8
        public var payload: N2KPayload
        /// Whom an addressed PGN is for (255: all).
        public var destination: UInt8 = 255

        public init(pgn: UInt32, payload: N2KPayload) {
            self.pgn = pgn
            priority = PGNCatalog.priority(pgn)
            self.payload = payload
        }

        public init(pgn: UInt32, priority: UInt8, destination: UInt8, payload: N2KPayload) {
            self.pgn = pgn
            self.priority = priority
            self.destination = destination
            self.payload = payload
        }
    }

    /// A converted message repeated until its hold time is gone.
    struct Held: Sendable {
        var message: Outgoing
        var received: Double
        var sent: Double
        var interval: Double
    }

    /// RMC, GGA, GLL, VTG and ZDA of one moment, merged.
    struct PendingPosition: Sendable {
        var opened: Double
        var latitude: Double?
        var longitude: Double?
        var course: Double?
        var speed: Double?
        var utc: UTCTime?
        var date: UTCDate?
        var gga: GGA?
    }

    public let settings: Settings
    var sid = 0
    var due: [UInt32: Double] = [:]
    var held: [UInt32: Held] = [:]
    var pending: PendingPosition?
    var lastRoute: Route?
    var routeSent = -Double.infinity
    /// Messages made, and 0183 sentences the conversions could not read.
    public private(set) var computed = 0
    public private(set) var converted = 0
    public private(set) var unreadable = 0

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// The 0183 address patterns the router should pass to the bus for the conversions (`*RMC`, ...).
    public var patterns: [String] {
        var out: [String] = []
        for conversion in Conversion.allCases where settings.convert.contains(conversion) {
            for formatter in conversion.formatters where !out.contains("*" + formatter) { out.append("*" + formatter) }
        }
        return out
    }

    // MARK: Computed

    private mutating func isDue(_ key: UInt32, every interval: Double, at time: Double) -> Bool {
        if let next = due[key], time < next - 0.001 { return false }
        due[key] = time + interval
        return true
    }

    /// The engine's report of one tick.
    public mutating func report(
        _ report: EngineReport, bus: BusSources, at time: Double, _ emit: (Outgoing) -> Void
    ) {
        let v = report.values
        sid = (sid + 1) % 253
        let sid = self.sid
        var made = 0
        func send(_ pgn: UInt32, _ payload: N2KPayload) {
            made += 1
            emit(Outgoing(pgn: pgn, payload: payload))
        }
        // Wind: none made from the forecast; none the bus gave (the true wind too when it was the bus's true wind
        // that the apparent was derived from).
        if !v.windIsForecast && isDue(130306, every: 0.1, at: time) {
            if settings.send.contains(.apparentWind), !bus.wind, !v.apparentWindIsDerived, let wind = v.apparentWind {
                send(130306, windPayload(sid, wind.speed, wind.angle, .apparent))
            }
            if settings.send.contains(.trueWind), !(bus.wind && v.apparentWindIsDerived), let wind = v.trueWind {
                send(130306, windPayload(sid, wind.speed, wind.angle, .trueBoat))
            }
            if settings.send.contains(.groundWind), !(bus.wind && v.apparentWindIsDerived),
                let direction = v.groundWindDirection, let wind = v.groundWind
            {
                send(130306, windPayload(sid, wind.speed, direction, .trueNorth))
            }
        }
        if settings.send.contains(.heading), !bus.heading, isDue(127250, every: 0.1, at: time) {
            let variation = v.variation.map(Angle.radians)
            if let heading = v.headingTrue {
                send(
                    127250,
                    VesselHeading(
                        sid: sid, heading: Angle.radians(heading), variation: variation, reference: .trueNorth
                    )
                    .payload)
            } else if let compass = v.compass {
                send(
                    127250,
                    VesselHeading(
                        sid: sid, heading: Angle.radians(compass.sensor ?? compass.magnetic),
                        deviation: compass.sensor == nil ? nil : compass.deviation.map(Angle.radians),
                        variation: variation, reference: .magnetic
                    ).payload)
            }
        }
        if settings.send.contains(.attitude), !bus.attitude, let attitude = v.imuAttitude,
            attitude.heel != nil || attitude.pitch != nil, isDue(127257, every: 1, at: time)
        {
            send(
                127257,
                N2K.Attitude(sid: sid, pitch: attitude.pitch.map(Angle.radians), roll: attitude.heel.map(Angle.radians))
                    .payload)
        }
        if let leg = v.navigationLeg, !leg.isUpstream {
            if settings.send.contains(.navigation), let solution = v.navigation, isDue(129283, every: 1, at: time) {
                send(
                    129283,
                    CrossTrackError(sid: sid, terminated: solution.routeComplete, xte: solution.crossTrack).payload)
                send(129284, navigationPayload(sid, solution, unixTime: report.unixTime))
            }
            if settings.send.contains(.route), let route = report.route,
                route != lastRoute || time - routeSent >= 10
            {
                lastRoute = route
                routeSent = time
                for payload in Self.routePayloads(route, reversed: leg.isReversed) { send(129285, payload) }
            }
        } else {
            lastRoute = nil
        }
        computed += made
    }

    private func windPayload(_ sid: Int, _ speed: Double, _ angle: Double, _ reference: WindData.Reference)
        -> N2KPayload
    {
        WindData(sid: sid, speed: speed, angle: Angle.radians(Angle.direction(angle)), reference: reference).payload
    }

    private func navigationPayload(_ sid: Int, _ s: NavigationSolution, unixTime: Double) -> N2KPayload {
        var n = NavigationData()
        n.sid = sid
        n.distanceToWaypoint = s.distanceToWaypoint
        n.bearingReference = 0
        n.perpendicularCrossed = s.perpendicularPassed
        n.arrivalCircleEntered = s.arrivalCircleEntered
        n.calculationType = 0
        if let timeToGo = s.timeToGo {
            let eta = unixTime + timeToGo
            let days = (eta / 86_400).rounded(.down)
            n.etaDate = Int(days)
            n.etaTime = eta - days * 86_400
        }
        n.bearingOriginToDestination = Angle.radians(s.legBearing)
        n.bearingToDestination = Angle.radians(s.bearingToWaypoint)
        n.originWaypoint = s.legIndex
        n.destinationWaypoint = s.legIndex + 1
        n.destinationLatitude = s.destination.position.latitude
        n.destinationLongitude = s.destination.position.longitude
        n.closingVelocity = s.closingVelocity
        return n.payload
    }

    /// The route in as many 129285 as it takes (a fast packet holds 223 bytes), each saying where its first
    /// waypoint is in the route.
    static func routePayloads(_ route: Route, reversed: Bool) -> [N2KPayload] {
        let name = String(decoding: Array((route.name ?? "").utf8.prefix(32)), as: UTF8.self)
        var out: [N2KPayload] = []
        var start = 0
        while start < route.waypoints.count || (start == 0 && out.isEmpty) {
            var size = 9 + name.utf8.count + 2 + 1
            var batch: [RouteInformation.Waypoint] = []
            while start + batch.count < route.waypoints.count {
                let waypoint = route.waypoints[start + batch.count]
                let id = String(decoding: Array(waypoint.id.utf8.prefix(16)), as: UTF8.self)
                let cost = 2 + id.utf8.count + 2 + 8
                guard size + cost <= 223 else { break }
                size += cost
                batch.append(
                    RouteInformation.Waypoint(
                        id: start + batch.count, name: id, latitude: waypoint.position.latitude,
                        longitude: waypoint.position.longitude))
            }
            if batch.isEmpty && start < route.waypoints.count { break }
            out.append(
                RouteInformation(start: start, direction: reversed ? 1 : 0, name: name, waypoints: batch).payload)
            start += batch.count
            if batch.isEmpty { break }
        }
        return out
    }

    // MARK: Converted

    /// An 0183 sentence the router passed to the bus.
    public mutating func sentence(_ sentence: Sentence, at time: Double, _ emit: (Outgoing) -> Void) {
        guard let message = try? Message(sentence) else {
            unreadable += 1
            return
        }
        flushPosition(at: time, force: false, emit)
        let c = settings.convert
        sid = (sid + 1) % 253
        switch message {
        case .rmc(let rmc) where c.contains(.position):
            guard rmc.isUsable else { return }
            position(at: time, emit) {
                $0.latitude = rmc.latitude
                $0.longitude = rmc.longitude
                $0.course = rmc.courseOverGround
                $0.speed = rmc.speedOverGround
                if let t = rmc.time { $0.utc = t }
                if let d = rmc.date { $0.date = d }
            }
        case .gga(let gga) where c.contains(.position):
            guard gga.isUsable else { return }
            position(at: time, emit) {
                $0.latitude = gga.latitude
                $0.longitude = gga.longitude
                if let t = gga.time { $0.utc = t }
                $0.gga = gga
            }
        case .gll(let gll) where c.contains(.position):
            guard gll.isUsable else { return }
            position(at: time, emit) {
                $0.latitude = gll.latitude
                $0.longitude = gll.longitude
                if let t = gll.time { $0.utc = t }
            }
        case .vtg(let vtg) where c.contains(.position):
            position(at: time, emit) {
                $0.course = vtg.courseTrue
                $0.speed = vtg.speedKnots
            }
        case .zda(let zda) where c.contains(.position):
            guard let day = zda.day, let month = zda.month, let year = zda.year else { return }
            position(at: time, emit) {
                $0.utc = zda.time
                $0.date = UTCDate(year: year, month: month, day: day)
            }
        case .hdg(let hdg) where c.contains(.heading):
            guard let heading = hdg.sensorHeading else { return }
            hold(
                127250,
                VesselHeading(
                    sid: sid, heading: Angle.radians(heading), deviation: hdg.deviation.map(Angle.radians),
                    variation: hdg.variation.map(Angle.radians), reference: .magnetic
                ).payload, at: time, emit)
        case .hdm(let hdm) where c.contains(.heading):
            guard let heading = hdm.heading else { return }
            hold(
                127250, VesselHeading(sid: sid, heading: Angle.radians(heading), reference: .magnetic).payload,
                at: time, emit)
        case .hdt(let hdt) where c.contains(.heading):
            guard let heading = hdt.heading else { return }
            hold(
                127250, VesselHeading(sid: sid, heading: Angle.radians(heading), reference: .trueNorth).payload,
                at: time, emit)
        case .mwv(let mwv) where c.contains(.wind):
            guard mwv.isValid != false, let angle = mwv.angle, let knots = mwv.speedKnots, let reference = mwv.reference
            else { return }
            let n2kReference: WindData.Reference = reference == .relative ? .apparent : .trueBoat
            hold(
                130306 &* 8 &+ UInt32(n2kReference.rawValue),
                windPayload(sid, Units.metresPerSecond(knots: knots), angle, n2kReference), pgn: 130306, at: time,
                emit)
        case .mwd(let mwd) where c.contains(.wind):
            guard let direction = mwd.directionTrue,
                let speed = mwd.speedMetresPerSecond ?? mwd.speedKnots.map({ Units.metresPerSecond(knots: $0) })
            else { return }
            hold(
                130306 &* 8, windPayload(sid, speed, direction, .trueNorth), pgn: 130306, at: time, emit)
        case .vhw(let vhw) where c.contains(.speed):
            guard let knots = vhw.speedKnots ?? vhw.speedKilometresPerHour.map({ $0 / 1.852 }) else { return }
            hold(128259, Speed(sid: sid, throughWater: Units.metresPerSecond(knots: knots)).payload, at: time, emit)
        case .dpt(let dpt) where c.contains(.depth):
            guard let depth = dpt.depth else { return }
            hold(128267, WaterDepth(sid: sid, depth: depth, offset: dpt.offset).payload, at: time, emit)
        case .dbt(let dbt) where c.contains(.depth):
            guard let depth = dbt.depth else { return }
            hold(128267, WaterDepth(sid: sid, depth: depth).payload, at: time, emit)
        case .mtw(let mtw) where c.contains(.temperature):
            guard let celsius = mtw.temperature else { return }
            hold(
                130312 &* 8, Environment(sid: sid, temperature: celsius + 273.15, source: 0).payload, pgn: 130312,
                at: time, emit)
        case .vlw(let vlw) where c.contains(.log):
            guard vlw.totalWater != nil || vlw.tripWater != nil else { return }
            hold(
                128275,
                DistanceLog(
                    log: vlw.totalWater.map { ($0 * Units.metresPerNauticalMile).rounded() },
                    tripLog: vlw.tripWater.map { ($0 * Units.metresPerNauticalMile).rounded() }
                ).payload, at: time, emit)
        case .rot(let rot) where c.contains(.rateOfTurn):
            guard rot.isValid != false, let rate = rot.rate else { return }
            hold(127251, RateOfTurn(sid: sid, rate: Angle.radians(rate) / 60).payload, at: time, emit)
        case .rsa(let rsa) where c.contains(.rudder):
            guard rsa.starboardValid != false, let angle = rsa.starboardAngle else { return }
            hold(127245, Rudder(position: Angle.radians(angle)).payload, at: time, emit)
        case .xdr(let xdr):
            transducers(xdr, at: time, emit)
        case .mda(let mda) where c.contains(.environment):
            if let pascals = mda.pressure {
                hold(
                    130314 &* 8, Environment(sid: sid, pressure: pascals).payload, pgn: 130314, at: time,
                    emit)
            }
            if let celsius = mda.airTemperature {
                hold(
                    130312 &* 8 &+ 1, Environment(sid: sid, temperature: celsius + 273.15, source: 1).payload,
                    pgn: 130312, at: time, emit)
            }
        case .xte(let xte) where c.contains(.navigation):
            guard xte.status1 != false, let magnitude = xte.magnitude, let steer = xte.steer else { return }
            let metres = magnitude * Units.metresPerNauticalMile
            hold(
                129283, CrossTrackError(sid: sid, xte: steer == .left ? metres : -metres).payload, at: time, emit)
        case .apb(let apb) where c.contains(.navigation):
            guard apb.status1 != false, let magnitude = apb.crossTrackError, let steer = apb.steer else { return }
            let metres = magnitude * Units.metresPerNauticalMile
            hold(
                129283, CrossTrackError(sid: sid, xte: steer == .left ? metres : -metres).payload, at: time, emit)
        case .rmb(let rmb) where c.contains(.navigation):
            guard rmb.isValid != false else { return }
            var n = NavigationData()
            n.sid = sid
            n.distanceToWaypoint = rmb.range.map { $0 * Units.metresPerNauticalMile }
            n.bearingReference = 0
            n.arrivalCircleEntered = rmb.arrived
            n.calculationType = 0
            n.bearingToDestination = rmb.bearingTrue.map(Angle.radians)
            n.destinationLatitude = rmb.destinationLatitude
            n.destinationLongitude = rmb.destinationLongitude
            n.closingVelocity = rmb.closingVelocity.map { Units.metresPerSecond(knots: $0) }
            hold(129284, n.payload, at: time, emit)
        case .vdm where c.contains(.ais):
            // Whole AIS messages are converted by the shell's assembler (``ais(_:at:_:)``): fragments come apart.
            break
        default:
            return
        }
    }

    /// A whole AIS message from an 0183 receiver (its fragments put together by the shell).
    public mutating func ais(_ report: AISReport, at time: Double, _ emit: (Outgoing) -> Void) {
        guard settings.convert.contains(.ais), let (pgn, payload) = AISConversion.message(report) else { return }
        converted += 1
        emit(Outgoing(pgn: pgn, payload: payload))
    }

    private mutating func transducers(_ xdr: XDR, at time: Double, _ emit: (Outgoing) -> Void) {
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
    private mutating func hold(
        _ key: UInt32, _ payload: N2KPayload, pgn: UInt32? = nil, at time: Double, _ emit: (Outgoing) -> Void
    ) {
        let pgn = pgn ?? key
        let message = Outgoing(pgn: pgn, payload: payload)
        held[key] = Held(message: message, received: time, sent: time, interval: max(PGNCatalog.interval(pgn) ?? 1, 1))
        converted += 1
        emit(message)
    }

    private mutating func position(
        at time: Double, _ emit: (Outgoing) -> Void, _ update: (inout PendingPosition) -> Void
    ) {
        var current = pending ?? PendingPosition(opened: time)
        update(&current)
        pending = current
        if settings.merge <= 0 { flushPosition(at: time, force: true, emit) }
    }

    /// The merged position out, once its window is over (or at once when `force`).
    private mutating func flushPosition(at time: Double, force: Bool, _ emit: (Outgoing) -> Void) {
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
