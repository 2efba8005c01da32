import Engine
import Marine
import NMEA

/// The boat's data as Signal K holds it: per path, the latest value from each source with its timestamp, in SI
/// units. Pure and deterministic: sentences and engine values come in with their times, updates (delta values) come
/// out in the order they were made, so a replay gives the same deltas every time.
///
/// Values passed through from an input carry the input's name and talker as their source (`gps.GP`); values the
/// engine derived carry `telltale.computed`. A value that stops arriving is withdrawn when its path's timeout
/// passes (a `null` update); a derived value the engine no longer has is withdrawn at once.
public struct SignalKModel: Sendable {
    public static let computedSource = "telltale.computed"
    public static let version = "1.7.0"

    public struct Entry: Sendable {
        public var source: String
        public var value: SignalKValue
        public var timestamp: String
        /// Engine seconds of the reading (for its timeout).
        public var time: Double
    }

    /// One value of a delta: `value` is `.null` when the path's value from `source` is withdrawn.
    public struct Update: Hashable, Sendable {
        public var path: String
        public var source: String
        public var timestamp: String
        public var value: SignalKValue
    }

    /// `vessels.<urn>`: the context of every delta.
    public let context: String
    public let urn: String
    public let name: String?
    /// Path to its entries, one per source.
    public private(set) var entries: [String: [Entry]] = [:]
    /// Input name to the talkers seen from it (the `sources` branch of the full model).
    public private(set) var sources: [String: [String]] = [:]
    private var pending: [Update] = []
    /// True wind over the last hour and heel over the last minutes, sampled at each ``update``.
    public private(set) var history = History()

    /// - Parameter urn: `urn:mrn:signalk:uuid:…` or `urn:mrn:imo:mmsi:…`, the boat's stable identity.
    public init(urn: String, name: String? = nil) {
        self.urn = urn
        self.name = name
        context = "vessels." + urn
    }

    /// A version 4 UUID URN made from `seed` (the same seed, the same URN): a boat's identity stays the same from
    /// one start to the next without a file to keep it in.
    public static func urn(seed: String) -> String {
        var a: UInt64 = 0xCBF2_9CE4_8422_2325
        var b: UInt64 = 0x8422_2325_CBF2_9CE4
        for byte in seed.utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 ^ (a >> 29)
        }
        var bytes: [UInt8] = []
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: a >> UInt64(shift)))
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: b >> UInt64(shift)))
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return "urn:mrn:signalk:uuid:" + String(decoding: text, as: UTF8.self)
    }

    /// The updates made since the last call, in order.
    public mutating func takeUpdates() -> [Update] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    public var hasUpdates: Bool { !pending.isEmpty }

    // MARK: Values in

    /// A sentence an input delivered and the engine accepted (never one refused as unreadable or implausible).
    public mutating func observe(_ sentence: Sentence, input: String, at time: Double, unixTime: Double) {
        guard let message = try? Message(sentence) else { return }
        let talker = sentence.address.talker.map { $0.description } ?? "P"
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
            guard rmc.isUsable else { return }
            put("navigation.position", position(rmc.latitude, rmc.longitude))
            put("navigation.speedOverGround", knots(rmc.speedOverGround))
            put("navigation.courseOverGroundTrue", direction(rmc.courseOverGround))
            put("navigation.magneticVariation", angle(rmc.magneticVariation))
            if let date = rmc.date, let utc = rmc.time {
                let seconds = Double(date.daysSinceEpoch) * 86_400 + utc.secondsOfDay
                put("navigation.datetime", .text(SignalKTime.text(unixTime: seconds)))
            }
        case .gga(let gga):
            guard gga.isUsable else { return }
            put("navigation.position", position(gga.latitude, gga.longitude))
            put("navigation.gnss.satellites", gga.satellites.map { .number(Double($0)) })
            put("navigation.gnss.horizontalDilution", gga.horizontalDilution.map(SignalKValue.number))
            put("navigation.gnss.antennaAltitude", gga.altitude.map(SignalKValue.number))
        case .gll(let gll):
            guard gll.isUsable else { return }
            put("navigation.position", position(gll.latitude, gll.longitude))
        case .vtg(let vtg):
            guard vtg.isUsable else { return }
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
        case .vhw(let vhw):
            put("navigation.speedThroughWater", knots(vhw.speedThroughWater))
        case .mwv(let mwv):
            guard mwv.isValid != false, let degrees = mwv.angle else { return }
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
            let roll = xdr.heel.map(Angle.radians)
            let pitch = xdr.pitch.map(Angle.radians)
            guard roll != nil || pitch != nil else { return }
            put("navigation.attitude", .attitude(roll: roll, pitch: pitch, yaw: nil))
        case .rot(let rot):
            guard rot.isValid != false, let rate = rot.rate else { return }
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

    /// What the engine derived at a tick, and the alarms it holds; values it no longer has are withdrawn.
    public mutating func update(
        _ values: InstrumentValues, alarms: [AlarmStatus], timeToStart: Double? = nil, at time: Double,
        unixTime: Double
    ) {
        let stamp = SignalKTime.text(unixTime: unixTime)
        let source = Self.computedSource
        func put(_ path: String, _ value: SignalKValue?) {
            if let value {
                set(path, value, source: source, time: time, timestamp: stamp)
            } else {
                withdraw(path, source: source, timestamp: stamp)
            }
        }
        func radians(_ degrees: Double?) -> SignalKValue? { degrees.map { .number(Angle.radians($0)) } }
        func number(_ value: Double?) -> SignalKValue? { value.map(SignalKValue.number) }
        func point(_ waypoint: Waypoint?) -> SignalKValue? {
            waypoint.map { .position(latitude: $0.position.latitude, longitude: $0.position.longitude) }
        }
        put("navigation.headingTrue", radians(values.headingTrue))
        put("environment.wind.angleApparent", radians(values.apparentWind?.angle))
        put("environment.wind.speedApparent", number(values.apparentWind?.speed))
        put("environment.wind.angleTrueWater", radians(values.trueWind?.angle))
        put("environment.wind.speedTrue", number(values.trueWind?.speed))
        put("environment.wind.directionTrue", radians(values.trueWindDirection))
        put("environment.wind.angleTrueGround", radians(values.groundWind?.angle))
        put("environment.wind.speedOverGround", number(values.groundWind?.speed))
        put("performance.velocityMadeGood", number(values.windwardSpeed))
        let performance = values.performance
        put("performance.polarSpeed", number(performance?.polarSpeed))
        put("performance.polarSpeedRatio", number(performance?.polarRatio))
        put("performance.beatAngle", radians(performance?.beat.angle))
        put("performance.beatAngleTargetSpeed", number(performance?.beat.speed))
        put("performance.beatAngleVelocityMadeGood", number(performance?.beat.windwardSpeed))
        put("performance.gybeAngle", radians(performance?.run.angle))
        put("performance.gybeAngleTargetSpeed", number(performance?.run.speed))
        put("performance.gybeAngleVelocityMadeGood", number(performance.map { -$0.run.windwardSpeed }))
        put("performance.targetAngle", radians(performance?.target.angle))
        put("performance.targetSpeed", number(performance?.target.speed))
        put("navigation.racing.layline.distance", number(values.laylines?.distance))
        put("navigation.racing.layline.time", number(values.laylines?.time))
        put("navigation.racing.oppositeLayline.distance", number(values.laylines?.oppositeDistance))
        put("navigation.racing.oppositeLayline.time", number(values.laylines?.oppositeTime))
        let imu = values.imuAttitude
        put(
            "navigation.attitude",
            imu.flatMap { attitude in
                attitude.heel == nil && attitude.pitch == nil
                    ? nil
                    : .attitude(
                        roll: attitude.heel.map(Angle.radians), pitch: attitude.pitch.map(Angle.radians), yaw: nil)
            })
        put("navigation.rateOfTurn", radians(values.rateOfTurn))
        let solution = values.navigation
        put(
            "navigation.courseGreatCircle.nextPoint.position",
            point(solution?.destination ?? values.navigationLeg?.destination))
        put(
            "navigation.courseGreatCircle.previousPoint.position",
            point(solution?.origin ?? values.navigationLeg?.origin))
        put("navigation.courseGreatCircle.nextPoint.bearingTrue", radians(solution?.bearingToWaypoint))
        put("navigation.courseGreatCircle.nextPoint.distance", number(solution?.distanceToWaypoint))
        put("navigation.courseGreatCircle.nextPoint.velocityMadeGood", number(solution?.closingVelocity))
        put("navigation.courseGreatCircle.nextPoint.timeToGo", number(solution?.timeToGo))
        put(
            "navigation.courseGreatCircle.nextPoint.estimatedTimeOfArrival",
            solution?.timeToGo.map { .text(SignalKTime.text(unixTime: unixTime + $0)) })
        put("navigation.courseGreatCircle.crossTrackError", number(solution?.crossTrack))
        put("navigation.courseGreatCircle.bearingTrackTrue", radians(solution?.legBearing))
        put("navigation.courseRhumbline.nextPoint.bearingTrue", radians(solution?.rhumbBearingToWaypoint))
        put("navigation.courseRhumbline.nextPoint.distance", number(solution?.rhumbDistanceToWaypoint))
        put("navigation.racing.timeToStart", number(timeToStart))
        let line = values.startLine
        put(
            "navigation.racing.startLinePort",
            line.map { .position(latitude: $0.port.latitude, longitude: $0.port.longitude) })
        put(
            "navigation.racing.startLineStb",
            line.map { .position(latitude: $0.starboard.latitude, longitude: $0.starboard.longitude) })
        put("navigation.racing.distanceStartline", number(line?.distance))
        put("navigation.racing.timeToLine", number(line?.timeToLine))
        put("navigation.racing.timeToBurn", number(line?.timeToBurn))
        put("navigation.racing.timeToLineAtPolar", number(line?.timeToLineAtPolar))
        put("navigation.racing.startLineBias", radians(line?.bias))
        put("navigation.racing.startLineLength", number(line?.length))
        for alarm in alarms {
            let path = "notifications." + alarm.path
            let state = alarm.isActive ? (alarm.isAcknowledged ? "warn" : "alarm") : "normal"
            let method = alarm.isActive && !alarm.isAcknowledged ? ["visual", "sound"] : ["visual"]
            let value = SignalKValue.notification(state: state, method: method, message: alarm.message)
            // An alarm goes out when it changes, not at every update.
            if entries[path]?.first?.value == value { continue }
            set(path, value, source: source, time: time, timestamp: stamp)
        }
        recordHistory(at: time)
    }

    /// The heel alarms' thresholds (degrees), shown with the heel history.
    public mutating func setHeelAlarm(over: Double?, under: Double?) {
        history.overHeel = over
        history.underHeel = under
    }

    /// Samples the history (``update`` does, after the engine's values are in).
    mutating func recordHistory(at time: Double) {
        let speed = current("environment.wind.speedTrue")
        let direction = current("environment.wind.directionTrue")
        let roll = currentRoll
        history.record(trueWindSpeed: speed, direction: direction, heel: roll, at: time)
    }

    /// Withdraws the values passed through from inputs that have not been renewed within their path's timeout.
    public mutating func expire(at time: Double, unixTime: Double) {
        // What has expired is found first and only that is put in order (by path, then as the sources came): the
        // paths were sorted every second for the few, mostly none, that expire.
        var expired: [(path: String, place: Int, source: String)] = []
        for (path, list) in entries {
            let timeout = SignalKPaths.info(path).timeout
            for (place, entry) in list.enumerated()
            where entry.source != Self.computedSource && time - entry.time > timeout {
                expired.append((path, place, entry.source))
            }
        }
        guard !expired.isEmpty else { return }
        expired.sort { $0.path != $1.path ? $0.path < $1.path : $0.place < $1.place }
        let stamp = SignalKTime.text(unixTime: unixTime)
        for item in expired { withdraw(item.path, source: item.source, timestamp: stamp) }
    }

    private mutating func set(_ path: String, _ value: SignalKValue, source: String, time: Double, timestamp: String) {
        let entry = Entry(source: source, value: value, timestamp: timestamp, time: time)
        if let index = entries[path]?.firstIndex(where: { $0.source == source }) {
            entries[path]![index] = entry
        } else {
            entries[path, default: []].append(entry)
        }
        pending.append(Update(path: path, source: source, timestamp: timestamp, value: value))
    }

    private mutating func withdraw(_ path: String, source: String, timestamp: String) {
        guard let index = entries[path]?.firstIndex(where: { $0.source == source }) else { return }
        entries[path]!.remove(at: index)
        if entries[path]!.isEmpty { entries[path] = nil }
        pending.append(Update(path: path, source: source, timestamp: timestamp, value: .null))
    }

    private mutating func noteSource(input: String, talker: String) {
        if sources[input]?.contains(talker) == true { return }
        sources[input, default: []].append(talker)
    }

    /// A name Signal K accepts in a `$source` (letters, digits, `-`, `_`, `.`); anything else becomes `_`.
    static func sourceName(_ text: String) -> String {
        let bytes = text.utf8.map { byte -> UInt8 in
            let ok =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
            return ok ? byte : UInt8(ascii: "_")
        }
        return bytes.isEmpty ? "_" : String(decoding: bytes, as: UTF8.self)
    }
}

/// RFC 3339 UTC timestamps with milliseconds, as Signal K writes them.
public enum SignalKTime {
    public static func text(unixTime: Double) -> String {
        // Milliseconds since 1970 pass 2^31 in 1970 itself: 64-bit arithmetic, also on a 32-bit Pi (armhf).
        let limit = 1e15
        let milliseconds = unixTime.isFinite ? Int64(max(-limit, min(limit, (unixTime * 1000).rounded()))) : 0
        var days = milliseconds / 86_400_000
        var rest = milliseconds - days * 86_400_000
        if rest < 0 {
            days -= 1
            rest += 86_400_000
        }
        let ofDay = Int(rest)
        let date = UTCDate(daysSinceEpoch: Int(days))
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2) + "T" + pad(ofDay / 3_600_000, 2)
            + ":" + pad(ofDay / 60_000 % 60, 2) + ":" + pad(ofDay / 1000 % 60, 2) + "." + pad(ofDay % 1000, 3) + "Z"
    }
}
