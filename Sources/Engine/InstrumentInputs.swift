import Marine
import NMEA

/// The latest observation of every input quantity, per source, with the source chosen for each.
///
/// Units follow `Marine.Units`: speeds in m/s, angles in degrees.
struct InstrumentInputs: Sendable {
    /// A wind relative to the bow, as the instrument measured it.
    var apparentWind: SourceSelector<RelativeWind>
    /// True wind relative to the bow from an instrument that computes it (MWV T, VWT).
    var trueWind: SourceSelector<RelativeWind>
    /// True wind direction and speed from MWD.
    var windDirection: SourceSelector<PlaneVector>
    var headingTrue: SourceSelector<Double>
    /// Magnetic heading (compass plus deviation), with the compass reading and deviation when HDG sent them.
    var headingMagnetic: SourceSelector<CompassReading>
    var variationFromHDG: SourceSelector<Double>
    var variationFromRMC: SourceSelector<Double>
    var speedThroughWater: SourceSelector<Double>
    /// Speed over ground (x, m/s) and course over ground (y, degrees) from RMC or VTG.
    var motionOverGround: SourceSelector<GroundMotion>
    var attitude: SourceSelector<Attitude>
    var position: SourceSelector<Fix>
    /// Metres below the transducer (DPT, DBT).
    var depth: SourceSelector<Double>
    /// Barometric pressure, pascals (MDA, XDR `P` named for a barometer).
    var pressure: SourceSelector<Double>
    /// The latest destination an upstream plotter announced (RMB, BWC, BWR), for upstream follow.
    var upstreamDestination: Observation<UpstreamDestination>?
    /// Positions of waypoints upstream plotters have named, so an RMB origin ID can be placed.
    var knownWaypoints: [String: GeoPoint] = [:]

    init(configuration: EngineConfiguration, priority: (QuantityGroup) -> [SourceID]) {
        let t = configuration.timeouts
        let delay = configuration.returnDelay
        apparentWind = SourceSelector(timeout: t.wind, returnDelay: delay, priority: priority(.wind))
        trueWind = SourceSelector(timeout: t.wind, returnDelay: delay, priority: priority(.wind))
        windDirection = SourceSelector(timeout: t.wind, returnDelay: delay, priority: priority(.wind))
        headingTrue = SourceSelector(timeout: t.heading, returnDelay: delay, priority: priority(.heading))
        headingMagnetic = SourceSelector(timeout: t.heading, returnDelay: delay, priority: priority(.heading))
        variationFromHDG = SourceSelector(timeout: t.variation, returnDelay: delay, priority: priority(.heading))
        variationFromRMC = SourceSelector(timeout: t.variation, returnDelay: delay, priority: priority(.position))
        speedThroughWater = SourceSelector(timeout: t.speed, returnDelay: delay, priority: priority(.speed))
        motionOverGround = SourceSelector(timeout: t.position, returnDelay: delay, priority: priority(.position))
        attitude = SourceSelector(timeout: t.attitude, returnDelay: delay, priority: priority(.attitude))
        position = SourceSelector(timeout: t.position, returnDelay: delay, priority: priority(.position))
        depth = SourceSelector(timeout: t.depth, returnDelay: delay, priority: priority(.depth))
        pressure = SourceSelector(timeout: t.pressure, returnDelay: delay, priority: [])
    }

    /// Whether any input of a group is current (the sensor-lost alarms).
    func hasFresh(_ group: QuantityGroup, at now: Double) -> Bool {
        switch group {
        case .wind: apparentWind.hasFresh(at: now) || trueWind.hasFresh(at: now) || windDirection.hasFresh(at: now)
        case .heading: headingTrue.hasFresh(at: now) || headingMagnetic.hasFresh(at: now)
        case .speed: speedThroughWater.hasFresh(at: now)
        case .position: position.hasFresh(at: now)
        case .depth: depth.hasFresh(at: now)
        case .attitude: attitude.hasFresh(at: now)
        }
    }

    private mutating func announce(
        _ id: String?, _ latitude: Double?, _ longitude: Double?, origin: String?,
        _ observe: (UpstreamDestination) -> Observation<UpstreamDestination>
    ) -> Bool {
        guard let id, let latitude, let longitude else { return false }
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        if knownWaypoints[id] != point { knownWaypoints[id] = point }
        upstreamDestination = observe(UpstreamDestination(id: id, position: point, originID: origin))
        return true
    }

    /// Records a fix. One of the same instant from the same source (the RMC and GGA of one second) completes the
    /// one recorded rather than replacing it: RMC brings the date, GGA the satellites, HDOP and altitude.
    mutating func record(_ observation: Observation<Fix>) {
        var fix = observation.value
        if let previous = position.latest(from: observation.source)?.value, fix.utc != nil, previous.utc == fix.utc {
            fix.date = fix.date ?? previous.date
            fix.satellites = fix.satellites ?? previous.satellites
            fix.horizontalDilution = fix.horizontalDilution ?? previous.horizontalDilution
            fix.altitude = fix.altitude ?? previous.altitude
            fix.geoidSeparation = fix.geoidSeparation ?? previous.geoidSeparation
        }
        position.record(Observation(value: fix, time: observation.time, source: observation.source))
    }

    /// Takes what the engine uses from a decoded sentence. Returns false when the sentence carried nothing usable
    /// (a `V` status, empty fields).
    mutating func record(_ message: Message, source: SourceID, at time: Double) -> Bool {
        guard message.isUsable else { return false }
        return recordWind(message, source: source, at: time)
            ?? recordNavigation(message, source: source, at: time)
            ?? recordInstrument(message, source: source, at: time)
            ?? false
    }

    /// The wind: apparent or true (MWV, VWR, VWT), its direction (MWD). Nil when the sentence is not of this kind; false when it carried nothing usable.
    private mutating func recordWind(_ message: Message, source: SourceID, at time: Double) -> Bool? {
        func observe<V>(_ value: V) -> Observation<V> { Observation(value: value, time: time, source: source) }
        switch message {
        case .mwv(let mwv):
            guard let angle = mwv.angle, let knots = mwv.speedKnots, angle.isFinite,
                knots.isFinite, knots >= 0
            else { return false }
            let wind = RelativeWind(angle: Angle.relative(angle), speed: Units.metresPerSecond(knots: knots))
            switch mwv.reference {
            case .relative?: apparentWind.record(observe(wind))
            case .true?: trueWind.record(observe(wind))
            case nil: return false
            }
        case .vwr(let vwr):
            guard let angle = vwr.wind.signedAngle, let knots = vwr.wind.knots else { return false }
            apparentWind.record(observe(RelativeWind(angle: angle, speed: Units.metresPerSecond(knots: knots))))
        case .vwt(let vwt):
            guard let angle = vwt.wind.signedAngle, let knots = vwt.wind.knots else { return false }
            trueWind.record(observe(RelativeWind(angle: angle, speed: Units.metresPerSecond(knots: knots))))
        case .mwd(let mwd):
            guard let direction = mwd.directionTrue, let knots = mwd.knots else { return false }
            windDirection.record(
                observe(PlaneVector(magnitude: Units.metresPerSecond(knots: knots), angle: direction)))
        default:
            return nil
        }
        return true
    }

    /// Position, motion over the ground, a plotter's next point. Nil when the sentence is not of this kind; false when it carried nothing usable.
    private mutating func recordNavigation(_ message: Message, source: SourceID, at time: Double) -> Bool? {
        func observe<V>(_ value: V) -> Observation<V> { Observation(value: value, time: time, source: source) }
        switch message {
        case .rmc(let rmc):
            if let latitude = rmc.latitude, let longitude = rmc.longitude {
                record(
                    observe(
                        Fix(
                            point: GeoPoint(latitude: latitude, longitude: longitude), utc: rmc.time, date: rmc.date,
                            mode: rmc.mode)))
            }
            if let variation = rmc.magneticVariation { variationFromRMC.record(observe(variation)) }
            guard let knots = rmc.speedOverGround else { return rmc.magneticVariation != nil }
            motionOverGround.record(
                observe(GroundMotion(speed: Units.metresPerSecond(knots: knots), course: rmc.courseOverGround)))
        case .vtg(let vtg):
            guard let knots = vtg.speedOverGround else { return false }
            motionOverGround.record(
                observe(GroundMotion(speed: Units.metresPerSecond(knots: knots), course: vtg.courseTrue)))
        case .gga(let gga):
            guard let latitude = gga.latitude, let longitude = gga.longitude else { return false }
            record(
                observe(
                    Fix(
                        point: GeoPoint(latitude: latitude, longitude: longitude), utc: gga.time,
                        mode: gga.quality.flatMap { FAAMode(ggaQuality: $0) } ?? .autonomous,
                        satellites: gga.satellites,
                        horizontalDilution: gga.horizontalDilution, altitude: gga.altitude,
                        geoidSeparation: gga.geoidSeparation)))
        case .gll(let gll):
            guard let latitude = gll.latitude, let longitude = gll.longitude else { return false }
            record(
                observe(Fix(point: GeoPoint(latitude: latitude, longitude: longitude), utc: gll.time, mode: gll.mode)))
        case .rmb(let rmb):
            return announce(
                rmb.destinationID, rmb.destinationLatitude, rmb.destinationLongitude, origin: rmb.originID, observe)
        case .bwc(let bwc):
            return announce(
                bwc.waypoint.waypointID, bwc.waypoint.latitude, bwc.waypoint.longitude, origin: nil, observe)
        case .bwr(let bwr):
            return announce(
                bwr.waypoint.waypointID, bwr.waypoint.latitude, bwr.waypoint.longitude, origin: nil, observe)
        default:
            return nil
        }
        return true
    }

    /// Heading, speed through the water, depth, attitude, pressure. Nil when the sentence is not of this kind; false when it carried nothing usable.
    private mutating func recordInstrument(_ message: Message, source: SourceID, at time: Double) -> Bool? {
        func observe<V>(_ value: V) -> Observation<V> { Observation(value: value, time: time, source: source) }
        switch message {
        case .hdt(let hdt):
            guard let heading = hdt.heading else { return false }
            headingTrue.record(observe(Angle.direction(heading)))
        case .hdm(let hdm):
            guard let heading = hdm.heading else { return false }
            headingMagnetic.record(observe(CompassReading(magnetic: Angle.direction(heading))))
        case .hdg(let hdg):
            if let variation = hdg.variation { variationFromHDG.record(observe(variation)) }
            guard let sensor = hdg.sensorHeading else { return hdg.variation != nil }
            headingMagnetic.record(
                observe(
                    CompassReading(
                        magnetic: Heading.magnetic(sensor: sensor, deviation: hdg.deviation), sensor: sensor,
                        deviation: hdg.deviation)))
        case .vhw(let vhw):
            guard let knots = vhw.speedThroughWater else { return false }
            speedThroughWater.record(observe(Units.metresPerSecond(knots: knots)))
        case .dpt(let dpt):
            guard let metres = dpt.depth, metres >= 0 else { return false }
            depth.record(observe(metres))
        case .dbt(let dbt):
            guard let metres = dbt.depth, metres >= 0 else { return false }
            depth.record(observe(metres))
        case .xdr(let xdr):
            let heel = xdr.heel
            let pitch = xdr.pitch
            let pascals = xdr.barometricPressure
            guard heel != nil || pitch != nil || pascals != nil else { return false }
            if heel != nil || pitch != nil { attitude.record(observe(Attitude(heel: heel, pitch: pitch))) }
            if let pascals { pressure.record(observe(pascals)) }
        case .mda(let mda):
            guard let pascals = mda.pressure else { return false }
            pressure.record(observe(pascals))
        default:
            return nil
        }
        return true
    }
}

/// A magnetic heading and, when HDG carried them, the compass reading and deviation it came from.
public struct CompassReading: Hashable, Sendable {
    public var magnetic: Double
    public var sensor: Double?
    public var deviation: Double?

    public init(magnetic: Double, sensor: Double? = nil, deviation: Double? = nil) {
        self.magnetic = magnetic
        self.sensor = sensor
        self.deviation = deviation
    }
}

/// Speed (m/s) and course (degrees true) over ground.
public struct GroundMotion: Hashable, Sendable {
    public var speed: Double
    public var course: Double?

    public init(speed: Double, course: Double?) {
        self.speed = speed
        self.course = course
    }
}

/// Heel and pitch (degrees) with their rates (degrees per second) when an IMU supplies them.
public struct Attitude: Hashable, Sendable {
    /// Positive starboard down.
    public var heel: Double?
    /// Positive bow up.
    public var pitch: Double?
    /// Positive rolling to starboard.
    public var rollRate: Double?
    /// Positive bow rising.
    public var pitchRate: Double?

    public init(heel: Double?, pitch: Double?, rollRate: Double? = nil, pitchRate: Double? = nil) {
        self.heel = heel
        self.pitch = pitch
        self.rollRate = rollRate
        self.pitchRate = pitchRate
    }
}

/// A position fix with what its source told of it: UTC time and date, FAA mode, and for GGA the satellites used,
/// HDOP, altitude above mean sea level and geoid separation (metres).
public struct Fix: Hashable, Sendable {
    public var point: GeoPoint
    public var utc: UTCTime?
    public var date: UTCDate?
    public var mode: FAAMode?
    public var satellites: Int?
    public var horizontalDilution: Double?
    public var altitude: Double?
    public var geoidSeparation: Double?

    public init(
        point: GeoPoint, utc: UTCTime? = nil, date: UTCDate? = nil, mode: FAAMode? = nil, satellites: Int? = nil,
        horizontalDilution: Double? = nil, altitude: Double? = nil, geoidSeparation: Double? = nil
    ) {
        self.point = point
        self.utc = utc
        self.date = date
        self.mode = mode
        self.satellites = satellites
        self.horizontalDilution = horizontalDilution
        self.altitude = altitude
        self.geoidSeparation = geoidSeparation
    }
}

/// A destination an upstream plotter is navigating to.
public struct UpstreamDestination: Hashable, Sendable {
    public var id: String
    public var position: GeoPoint
    public var originID: String?
}
