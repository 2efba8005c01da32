import Engine
import Marine
import N2K
import NMEA

/// The 0183 sentences of the inputs the router passes to the bus, converted.
extension N2KOutbound {
    /// An 0183 sentence the router passed to the bus: one of the position's merged, an instrument's value held, a
    /// route's guidance held (the three conversions are apart: a sentence is one of them at most).
    public mutating func sentence(_ sentence: Sentence, at time: Double, _ emit: (Outgoing) -> Void) {
        guard let message = try? Message(sentence) else {
            unreadable += 1
            return
        }
        flushPosition(at: time, force: false, emit)
        sid = (sid + 1) % 253
        convertPosition(message, at: time, emit)
        convertInstrument(message, at: time, emit)
        convertNavigation(message, at: time, emit)
    }

    /// RMC, GGA, GLL, VTG and ZDA: into the position being merged.
    private mutating func convertPosition(_ message: Message, at time: Double, _ emit: (Outgoing) -> Void) {
        switch message {
        case .rmc(let rmc) where settings.convert.contains(.position):
            guard rmc.isUsable else { return }
            position(at: time, emit) {
                $0.latitude = rmc.latitude
                $0.longitude = rmc.longitude
                $0.course = rmc.courseOverGround
                $0.speed = rmc.speedOverGround
                if let t = rmc.time { $0.utc = t }
                if let d = rmc.date { $0.date = d }
            }
        case .gga(let gga) where settings.convert.contains(.position):
            guard gga.isUsable else { return }
            position(at: time, emit) {
                $0.latitude = gga.latitude
                $0.longitude = gga.longitude
                if let t = gga.time { $0.utc = t }
                $0.gga = gga
            }
        case .gll(let gll) where settings.convert.contains(.position):
            guard gll.isUsable else { return }
            position(at: time, emit) {
                $0.latitude = gll.latitude
                $0.longitude = gll.longitude
                if let t = gll.time { $0.utc = t }
            }
        case .vtg(let vtg) where settings.convert.contains(.position):
            position(at: time, emit) {
                $0.course = vtg.courseTrue
                $0.speed = vtg.speedKnots
            }
        case .zda(let zda) where settings.convert.contains(.position):
            guard let day = zda.day, let month = zda.month, let year = zda.year else { return }
            position(at: time, emit) {
                $0.utc = zda.time
                $0.date = UTCDate(year: year, month: month, day: day)
            }
        default:
            return
        }
    }

    /// Heading, wind, speed, depth, temperature, log, rate of turn, rudder, transducers, the weather station.
    private mutating func convertInstrument(_ message: Message, at time: Double, _ emit: (Outgoing) -> Void) {
        switch message {
        case .hdg(let hdg) where settings.convert.contains(.heading):
            guard let heading = hdg.sensorHeading else { return }
            hold(
                127250,
                VesselHeading(
                    sid: sid, heading: Angle.radians(heading), deviation: hdg.deviation.map(Angle.radians),
                    variation: hdg.variation.map(Angle.radians), reference: .magnetic
                ).payload, at: time, emit)
        case .hdm(let hdm) where settings.convert.contains(.heading):
            guard let heading = hdm.heading else { return }
            hold(
                127250, VesselHeading(sid: sid, heading: Angle.radians(heading), reference: .magnetic).payload,
                at: time, emit)
        case .hdt(let hdt) where settings.convert.contains(.heading):
            guard let heading = hdt.heading else { return }
            hold(
                127250, VesselHeading(sid: sid, heading: Angle.radians(heading), reference: .trueNorth).payload,
                at: time, emit)
        case .mwv(let mwv) where settings.convert.contains(.wind):
            guard mwv.isValid != false, let angle = mwv.angle, let knots = mwv.speedKnots, let reference = mwv.reference
            else { return }
            let n2kReference: WindData.Reference = reference == .relative ? .apparent : .trueBoat
            hold(
                130306 &* 8 &+ UInt32(n2kReference.rawValue),
                windPayload(sid, Units.metresPerSecond(knots: knots), angle, n2kReference), pgn: 130306, at: time,
                emit)
        case .mwd(let mwd) where settings.convert.contains(.wind):
            guard let direction = mwd.directionTrue,
                let speed = mwd.speedMetresPerSecond ?? mwd.speedKnots.map({ Units.metresPerSecond(knots: $0) })
            else { return }
            hold(
                130306 &* 8, windPayload(sid, speed, direction, .trueNorth), pgn: 130306, at: time, emit)
        case .vhw(let vhw) where settings.convert.contains(.speed):
            guard let knots = vhw.speedKnots ?? vhw.speedKilometresPerHour.map({ $0 / 1.852 }) else { return }
            hold(128259, Speed(sid: sid, throughWater: Units.metresPerSecond(knots: knots)).payload, at: time, emit)
        case .dpt(let dpt) where settings.convert.contains(.depth):
            guard let depth = dpt.depth else { return }
            hold(128267, WaterDepth(sid: sid, depth: depth, offset: dpt.offset).payload, at: time, emit)
        case .dbt(let dbt) where settings.convert.contains(.depth):
            guard let depth = dbt.depth else { return }
            hold(128267, WaterDepth(sid: sid, depth: depth).payload, at: time, emit)
        case .mtw(let mtw) where settings.convert.contains(.temperature):
            guard let celsius = mtw.temperature else { return }
            hold(
                130312 &* 8, Environment(sid: sid, temperature: celsius + 273.15, source: 0).payload, pgn: 130312,
                at: time, emit)
        case .vlw(let vlw) where settings.convert.contains(.log):
            guard vlw.totalWater != nil || vlw.tripWater != nil else { return }
            hold(
                128275,
                DistanceLog(
                    log: vlw.totalWater.map { ($0 * Units.metresPerNauticalMile).rounded() },
                    tripLog: vlw.tripWater.map { ($0 * Units.metresPerNauticalMile).rounded() }
                ).payload, at: time, emit)
        case .rot(let rot) where settings.convert.contains(.rateOfTurn):
            guard rot.isValid != false, let rate = rot.rate else { return }
            hold(127251, RateOfTurn(sid: sid, rate: Angle.radians(rate) / 60).payload, at: time, emit)
        case .rsa(let rsa) where settings.convert.contains(.rudder):
            guard rsa.starboardValid != false, let angle = rsa.starboardAngle else { return }
            hold(127245, Rudder(position: Angle.radians(angle)).payload, at: time, emit)
        case .xdr(let xdr):
            transducers(xdr, at: time, emit)
        case .mda(let mda) where settings.convert.contains(.environment):
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
        default:
            return
        }
    }

    /// Cross-track error and the way to the waypoint.
    private mutating func convertNavigation(_ message: Message, at time: Double, _ emit: (Outgoing) -> Void) {
        switch message {
        case .xte(let xte) where settings.convert.contains(.navigation):
            guard xte.status1 != false, let magnitude = xte.magnitude, let steer = xte.steer else { return }
            let metres = magnitude * Units.metresPerNauticalMile
            hold(
                129283, CrossTrackError(sid: sid, xte: steer == .left ? metres : -metres).payload, at: time, emit)
        case .apb(let apb) where settings.convert.contains(.navigation):
            guard apb.status1 != false, let magnitude = apb.crossTrackError, let steer = apb.steer else { return }
            let metres = magnitude * Units.metresPerNauticalMile
            hold(
                129283, CrossTrackError(sid: sid, xte: steer == .left ? metres : -metres).payload, at: time, emit)
        case .rmb(let rmb) where settings.convert.contains(.navigation):
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
        case .vdm where settings.convert.contains(.ais):
            // Whole AIS messages are converted by the shell's assembler (``ais(_:at:_:)``): fragments come apart.
            break
        default:
            return
        }
    }
}
