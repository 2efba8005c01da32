/// The physical range of every decoded quantity. A value outside it cannot be true whatever its checksum says
/// (`$WIMWV,40.0,R,99999,N,A`, `HDT,400`, a negative depth, `nan`), so the sentence is rejected as `implausible`:
/// counted, never used, never passed through. The ranges are wide enough for any boat and any sea; the README lists
/// them.
public enum Quantity: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// A heading, course, bearing or wind direction, degrees from north.
    case direction
    /// MWV's wind angle, degrees from the bow (0–360; some sensors send ±180).
    case windAngle
    /// VWR/VWT's angle off the bow, 0–180 degrees.
    case sideAngle
    /// Wind speed, m/s (100 m/s is 194 kn, beyond any gust a masthead unit survives).
    case windSpeed
    /// Speed through the water, knots.
    case boatSpeed
    /// Speed over ground, knots.
    case groundSpeed
    /// Velocity made good or closing velocity, knots, signed.
    case signedSpeed
    /// Depth below the transducer, metres.
    case depth
    /// DPT's transducer offset, metres.
    case depthOffset
    /// Water temperature, °C.
    case waterTemperature
    /// Heel, pitch or another XDR angle, degrees.
    case attitudeAngle
    /// Magnetic variation or deviation, degrees, signed.
    case variation
    /// Rate of turn, degrees per minute.
    case rateOfTurn
    /// Rudder angle, degrees.
    case rudderAngle
    /// A distance or cross-track error, nautical miles (half the earth's circumference is 10 800 NM).
    case distance
    /// GPS dilution of precision.
    case dilution
    /// Antenna altitude or geoid separation, metres.
    case altitude
    /// Any other XDR measurement: a finite number.
    case measurement

    /// The values that can be true, in the quantity's unit.
    public var range: ClosedRange<Double> {
        switch self {
        case .direction: 0...360
        case .windAngle: -180...360
        case .sideAngle: 0...180
        case .windSpeed: 0...100
        case .boatSpeed: 0...80
        case .groundSpeed: 0...200
        case .signedSpeed: -200...200
        case .depth: 0...11_000
        case .depthOffset: -100...100
        case .waterTemperature: -5...50
        case .attitudeAngle: -180...180
        case .variation: -180...180
        case .rateOfTurn: -3_600...3_600
        case .rudderAngle: -90...90
        case .distance: 0...21_600
        case .dilution: 0...100
        case .altitude: -1_000...100_000
        case .measurement: -1e15...1e15
        }
    }

    public var unit: String {
        switch self {
        case .direction, .windAngle, .sideAngle, .attitudeAngle, .variation, .rudderAngle: "°"
        case .windSpeed: "m/s"
        case .boatSpeed, .groundSpeed, .signedSpeed: "kn"
        case .depth, .depthOffset, .altitude: "m"
        case .waterTemperature: "°C"
        case .rateOfTurn: "°/min"
        case .distance: "NM"
        case .dilution, .measurement: ""
        }
    }

    public var description: String {
        switch self {
        case .direction: "direction"
        case .windAngle: "wind angle"
        case .sideAngle: "wind angle off the bow"
        case .windSpeed: "wind speed"
        case .boatSpeed: "speed through water"
        case .groundSpeed: "speed over ground"
        case .signedSpeed: "velocity made good"
        case .depth: "depth"
        case .depthOffset: "transducer offset"
        case .waterTemperature: "water temperature"
        case .attitudeAngle: "XDR angle"
        case .variation: "variation or deviation"
        case .rateOfTurn: "rate of turn"
        case .rudderAngle: "rudder angle"
        case .distance: "distance"
        case .dilution: "dilution of precision"
        case .altitude: "altitude"
        case .measurement: "XDR value"
        }
    }

    /// Whether `value` (in this quantity's unit) can be true; an empty field always can.
    @inlinable
    public func admits(_ value: Double?) -> Bool {
        guard let value else { return true }
        return value.isFinite && range.contains(value)
    }
}

/// A decoded sentence type whose values can be judged against their physical ranges.
protocol PlausibilityJudged {
    /// Checks each value that has a range (a type with none checks nothing).
    func judge(_ judge: inout Judge)
}

extension PlausibilityJudged {
    func judge(_ judge: inout Judge) {}

    /// The first quantity whose value cannot be true, or nil when every value is within its range.
    var implausibleQuantity: Quantity? {
        var judge = Judge()
        self.judge(&judge)
        return judge.found
    }
}

/// Keeps the first quantity found out of range.
struct Judge {
    static let knotsPerMetrePerSecond = 3600.0 / 1852
    private(set) var found: Quantity?

    @inline(__always)
    mutating func check(_ quantity: Quantity, _ value: Double?) {
        if found == nil && !quantity.admits(value) { found = quantity }
    }

    mutating func check(sideWind wind: SideWind) {
        check(.sideAngle, wind.angle)
        check(.windSpeed, wind.speedKnots.map { $0 * 1852 / 3600 })
        check(.windSpeed, wind.speedMetresPerSecond)
        check(.windSpeed, wind.speedKilometresPerHour.map { $0 / 3.6 })
    }

    mutating func check(waypoint bearing: WaypointBearing) {
        check(.direction, bearing.bearingTrue)
        check(.direction, bearing.bearingMagnetic)
        check(.distance, bearing.distance)
    }
}

extension Message {
    /// The first quantity whose value cannot be true, or nil when every value is within its range. Decoding judges
    /// each type before it becomes a `Message` (a copy of the enum per judgement cost more than the judging).
    public var implausibleQuantity: Quantity? {
        switch self {
        case .rmc(let s): s.implausibleQuantity
        case .gga(let s): s.implausibleQuantity
        case .gll(let s): s.implausibleQuantity
        case .vtg(let s): s.implausibleQuantity
        case .zda(let s): s.implausibleQuantity
        case .hdg(let s): s.implausibleQuantity
        case .hdm(let s): s.implausibleQuantity
        case .hdt(let s): s.implausibleQuantity
        case .vhw(let s): s.implausibleQuantity
        case .mwv(let s): s.implausibleQuantity
        case .vwr(let s): s.implausibleQuantity
        case .vwt(let s): s.implausibleQuantity
        case .mwd(let s): s.implausibleQuantity
        case .vpw(let s): s.implausibleQuantity
        case .dbt(let s): s.implausibleQuantity
        case .dpt(let s): s.implausibleQuantity
        case .mtw(let s): s.implausibleQuantity
        case .vlw(let s): s.implausibleQuantity
        case .xdr(let s): s.implausibleQuantity
        case .rmb(let s): s.implausibleQuantity
        case .apb(let s): s.implausibleQuantity
        case .xte(let s): s.implausibleQuantity
        case .bwc(let s): s.implausibleQuantity
        case .bwr(let s): s.implausibleQuantity
        case .bod(let s): s.implausibleQuantity
        case .rte(let s): s.implausibleQuantity
        case .wcv(let s): s.implausibleQuantity
        case .rot(let s): s.implausibleQuantity
        case .rsa(let s): s.implausibleQuantity
        case .alr(let s): s.implausibleQuantity
        case .txt(let s): s.implausibleQuantity
        case .ack(let s): s.implausibleQuantity
        case .acn(let s): s.implausibleQuantity
        }
    }
}

extension RMC: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.groundSpeed, speedOverGround)
        judge.check(.direction, courseOverGround)
        judge.check(.variation, magneticVariation)
    }
}

extension GGA: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.dilution, horizontalDilution)
        judge.check(.altitude, altitude)
        judge.check(.altitude, geoidSeparation)
    }
}

extension VTG: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, courseTrue)
        judge.check(.direction, courseMagnetic)
        judge.check(.groundSpeed, speedKnots)
        judge.check(.groundSpeed, speedKilometresPerHour.map { $0 / 1.852 })
    }
}

extension HDG: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, sensorHeading)
        judge.check(.variation, deviation)
        judge.check(.variation, variation)
    }
}

extension HDM: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, heading)
    }
}

extension HDT: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, heading)
    }
}

extension VHW: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, headingTrue)
        judge.check(.direction, headingMagnetic)
        judge.check(.boatSpeed, speedKnots)
        judge.check(.boatSpeed, speedKilometresPerHour.map { $0 / 1.852 })
    }
}

extension MWV: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.windAngle, angle)
        judge.check(.windSpeed, speedKnots.map { $0 / Judge.knotsPerMetrePerSecond })
    }
}

extension VWR: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(sideWind: wind)
    }
}

extension VWT: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(sideWind: wind)
    }
}

extension MWD: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, directionTrue)
        judge.check(.direction, directionMagnetic)
        judge.check(.windSpeed, speedKnots.map { $0 / Judge.knotsPerMetrePerSecond })
        judge.check(.windSpeed, speedMetresPerSecond)
    }
}

extension VPW: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.signedSpeed, speedKnots)
        judge.check(.signedSpeed, speedMetresPerSecond.map { $0 * Judge.knotsPerMetrePerSecond })
    }
}

extension DBT: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.depth, metres)
        judge.check(.depth, feet.map { $0 * 0.3048 })
        judge.check(.depth, fathoms.map { $0 * 1.8288 })
    }
}

extension DPT: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.depth, depth)
        judge.check(.depthOffset, offset)
    }
}

extension MTW: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.waterTemperature, temperature)
    }
}

extension VLW: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        // Logs count for the boat's life: only the sign and finiteness are checked.
        for value in [totalWater, tripWater, totalGround, tripGround] {
            judge.check(.measurement, value)
            if let value, value < 0 { judge.check(.distance, value) }
        }
    }
}

extension XDR: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        for measurement in measurements {
            let isAngle = measurement.type == UInt8(ascii: "A")
            judge.check(isAngle ? .attitudeAngle : .measurement, measurement.value)
        }
    }
}

extension RMB: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.distance, crossTrackError)
        judge.check(.distance, range)
        judge.check(.direction, bearingTrue)
        judge.check(.signedSpeed, closingVelocity)
    }
}

extension APB: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.distance, crossTrackError)
        judge.check(.direction, bearingOriginToDestination)
        judge.check(.direction, bearingToDestination)
        judge.check(.direction, headingToSteer)
    }
}

extension XTE: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.distance, magnitude)
    }
}

extension BWC: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(waypoint: waypoint)
    }
}

extension BWR: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(waypoint: waypoint)
    }
}

extension BOD: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.direction, bearingTrue)
        judge.check(.direction, bearingMagnetic)
    }
}

extension WCV: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.signedSpeed, velocity)
    }
}

extension ROT: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.rateOfTurn, rate)
    }
}

extension RSA: PlausibilityJudged {
    func judge(_ judge: inout Judge) {
        judge.check(.rudderAngle, starboardAngle)
        judge.check(.rudderAngle, portAngle)
    }
}

extension GLL: PlausibilityJudged {}

extension ZDA: PlausibilityJudged {}

extension RTE: PlausibilityJudged {}

extension ALR: PlausibilityJudged {}

extension TXT: PlausibilityJudged {}

extension ACK: PlausibilityJudged {}

extension ACN: PlausibilityJudged {}
