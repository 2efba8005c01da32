import Engine
import Marine
import NMEA

/// Values in from the inputs: the sentences and fixes the engine took, in Signal K's paths and SI units.
extension SignalKModel {
    /// A sentence an input delivered and the engine accepted (never one refused as unreadable or implausible),
    /// decoded once by the router: its message and the talker it came with.
    public mutating func observe(
        _ message: Message, talker: String, input: String, at time: Double, unixTime: Double
    ) {
        guard message.isUsable else { return }
        let source = Self.sourceName(input) + "." + Self.sourceName(talker)
        noteSource(input: Self.sourceName(input), talker: talker)
        let stamp = SignalKTime.text(unixTime: unixTime)
        func put(_ path: String, _ value: SignalKValue?) {
            guard let value else { return }
            set(path, value, source: source, time: time, timestamp: stamp)
        }
        func angle(_ degrees: Double?) -> SignalKValue? { degrees.map { .number(Angle.radians($0)) } }
        func direction(_ degrees: Double?) -> SignalKValue? {
            degrees.map { .number(Angle.radians(Angle.direction($0))) }
        }
        func knots(_ knots: Double?) -> SignalKValue? { knots.map { .number(Units.metresPerSecond(knots: $0)) } }
        func position(_ latitude: Double?, _ longitude: Double?) -> SignalKValue? {
            guard let latitude, let longitude else { return nil }
            return .position(latitude: latitude, longitude: longitude)
        }
        switch message {
        case .rmc(let rmc):
            put("navigation.position", position(rmc.latitude, rmc.longitude))
            put("navigation.speedOverGround", knots(rmc.speedOverGround))
            put("navigation.courseOverGroundTrue", direction(rmc.courseOverGround))
            put("navigation.magneticVariation", angle(rmc.magneticVariation))
            if let date = rmc.date, let utc = rmc.time {
                let seconds = Double(date.daysSinceEpoch) * 86_400 + utc.secondsOfDay
                put("navigation.datetime", .text(SignalKTime.text(unixTime: seconds)))
            }
        case .gga(let gga):
            put("navigation.position", position(gga.latitude, gga.longitude))
            put("navigation.gnss.satellites", gga.satellites.map { .number(Double($0)) })
            put("navigation.gnss.horizontalDilution", gga.horizontalDilution.map(SignalKValue.number))
            put("navigation.gnss.antennaAltitude", gga.altitude.map(SignalKValue.number))
        case .gll(let gll):
            put("navigation.position", position(gll.latitude, gll.longitude))
        case .vtg(let vtg):
            put("navigation.courseOverGroundTrue", direction(vtg.courseTrue))
            put("navigation.courseOverGroundMagnetic", direction(vtg.courseMagnetic))
            put("navigation.speedOverGround", knots(vtg.speedOverGround))
        case .hdt(let hdt):
            put("navigation.headingTrue", direction(hdt.heading))
        case .hdm(let hdm):
            put("navigation.headingMagnetic", direction(hdm.heading))
        case .hdg(let hdg):
            put("navigation.headingMagnetic", direction(hdg.sensorHeading.map { $0 + (hdg.deviation ?? 0) }))
            put("navigation.magneticDeviation", angle(hdg.deviation))
            put("navigation.magneticVariation", angle(hdg.variation))
            // With its variation, HDG gives true heading too, at the compass's own rate (the reference's parser,
            // nmea0183-signalk's HDG hook, does the same).
            if let heading = hdg.sensorHeading, let variation = hdg.variation {
                put("navigation.headingTrue", direction(heading + (hdg.deviation ?? 0) + variation))
            }
        case .vhw(let vhw):
            put("navigation.speedThroughWater", knots(vhw.speedThroughWater))
        case .mwv(let mwv):
            guard let degrees = mwv.angle else { return }
            let relative = Angle.radians(Angle.relative(degrees))
            if mwv.reference == .relative {
                put("environment.wind.angleApparent", .number(relative))
                put("environment.wind.speedApparent", knots(mwv.speedKnots))
            } else if mwv.reference == .true {
                put("environment.wind.angleTrueWater", .number(relative))
                put("environment.wind.speedTrue", knots(mwv.speedKnots))
            }
        case .mwd(let mwd):
            put("environment.wind.directionTrue", direction(mwd.directionTrue))
            put("environment.wind.directionMagnetic", direction(mwd.directionMagnetic))
        case .dpt(let dpt):
            guard let depth = dpt.depth else { return }
            put("environment.depth.belowTransducer", .number(depth))
            if let offset = dpt.offset, offset > 0 { put("environment.depth.belowSurface", .number(depth + offset)) }
            if let offset = dpt.offset, offset < 0 { put("environment.depth.belowKeel", .number(depth + offset)) }
        case .dbt(let dbt):
            put("environment.depth.belowTransducer", dbt.depth.map(SignalKValue.number))
        case .mtw(let mtw):
            put("environment.water.temperature", mtw.temperature.map { .number($0 + 273.15) })
        case .xdr(let xdr):
            put("environment.outside.pressure", xdr.barometricPressure.map(SignalKValue.number))
            let roll = xdr.heel.map(Angle.radians)
            let pitch = xdr.pitch.map(Angle.radians)
            guard roll != nil || pitch != nil else { return }
            put("navigation.attitude", .attitude(roll: roll, pitch: pitch, yaw: nil))
        case .mda(let mda):
            // As nmea0183-signalk's MDA hook: pressure in pascals, temperatures in kelvin, humidity as a ratio.
            put("environment.outside.pressure", mda.pressure.map(SignalKValue.number))
            put("environment.outside.temperature", mda.airTemperature.map { .number($0 + 273.15) })
            put("environment.water.temperature", mda.waterTemperature.map { .number($0 + 273.15) })
            put("environment.outside.relativeHumidity", mda.relativeHumidity.map { .number($0 / 100) })
            put("environment.outside.dewPointTemperature", mda.dewPoint.map { .number($0 + 273.15) })
        case .rot(let rot):
            guard let rate = rot.rate else { return }
            put("navigation.rateOfTurn", .number(Angle.radians(rate) / 60))
        default:
            return
        }
    }

    /// A fix that did not come as NMEA (gpsd): position, motion over ground (m/s, degrees true), satellites, HDOP.
    public mutating func observe(fix: Fix, motion: GroundMotion?, input: String, at time: Double, unixTime: Double) {
        let source = Self.sourceName(input) + ".gpsd"
        noteSource(input: Self.sourceName(input), talker: "gpsd")
        let stamp = SignalKTime.text(unixTime: unixTime)
        set(
            "navigation.position", .position(latitude: fix.point.latitude, longitude: fix.point.longitude),
            source: source, time: time, timestamp: stamp)
        if let motion {
            set("navigation.speedOverGround", .number(motion.speed), source: source, time: time, timestamp: stamp)
            if let course = motion.course {
                set(
                    "navigation.courseOverGroundTrue", .number(Angle.radians(Angle.direction(course))),
                    source: source, time: time, timestamp: stamp)
            }
        }
        if let satellites = fix.satellites {
            set("navigation.gnss.satellites", .number(Double(satellites)), source: source, time: time, timestamp: stamp)
        }
        if let hdop = fix.horizontalDilution {
            set("navigation.gnss.horizontalDilution", .number(hdop), source: source, time: time, timestamp: stamp)
        }
    }
}
