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

extension Message {
    /// The first quantity whose value cannot be true, or nil when every value is within its range.
    public var implausibleQuantity: Quantity? {
        var found: Quantity?
        func check(_ quantity: Quantity, _ value: Double?) {
            if found == nil && !quantity.admits(value) { found = quantity }
        }
        let knotsPerMetrePerSecond = 3600.0 / 1852
        switch self {
        case .rmc(let s):
            check(.groundSpeed, s.speedOverGround)
            check(.direction, s.courseOverGround)
            check(.variation, s.magneticVariation)
        case .gga(let s):
            check(.dilution, s.horizontalDilution)
            check(.altitude, s.altitude)
            check(.altitude, s.geoidSeparation)
        case .gll, .zda, .rte, .alr, .txt, .ack, .acn:
            break
        case .vtg(let s):
            check(.direction, s.courseTrue)
            check(.direction, s.courseMagnetic)
            check(.groundSpeed, s.speedKnots)
            check(.groundSpeed, s.speedKilometresPerHour.map { $0 / 1.852 })
        case .hdg(let s):
            check(.direction, s.sensorHeading)
            check(.variation, s.deviation)
            check(.variation, s.variation)
        case .hdm(let s):
            check(.direction, s.heading)
        case .hdt(let s):
            check(.direction, s.heading)
        case .vhw(let s):
            check(.direction, s.headingTrue)
            check(.direction, s.headingMagnetic)
            check(.boatSpeed, s.speedKnots)
            check(.boatSpeed, s.speedKilometresPerHour.map { $0 / 1.852 })
        case .mwv(let s):
            check(.windAngle, s.angle)
            check(.windSpeed, s.speedKnots.map { $0 / knotsPerMetrePerSecond })
        case .vwr(let s):
            checkSideWind(s.wind, check)
        case .vwt(let s):
            checkSideWind(s.wind, check)
        case .mwd(let s):
            check(.direction, s.directionTrue)
            check(.direction, s.directionMagnetic)
            check(.windSpeed, s.speedKnots.map { $0 / knotsPerMetrePerSecond })
            check(.windSpeed, s.speedMetresPerSecond)
        case .vpw(let s):
            check(.signedSpeed, s.speedKnots)
            check(.signedSpeed, s.speedMetresPerSecond.map { $0 * knotsPerMetrePerSecond })
        case .dbt(let s):
            check(.depth, s.metres)
            check(.depth, s.feet.map { $0 * 0.3048 })
            check(.depth, s.fathoms.map { $0 * 1.8288 })
        case .dpt(let s):
            check(.depth, s.depth)
            check(.depthOffset, s.offset)
        case .mtw(let s):
            check(.waterTemperature, s.temperature)
        case .vlw(let s):
            // Logs count for the boat's life: only the sign and finiteness are checked.
            for value in [s.totalWater, s.tripWater, s.totalGround, s.tripGround] {
                check(.measurement, value)
                if let value, value < 0 { check(.distance, value) }
            }
        case .xdr(let s):
            for measurement in s.measurements {
                let isAngle = measurement.type == UInt8(ascii: "A")
                check(isAngle ? .attitudeAngle : .measurement, measurement.value)
            }
        case .rmb(let s):
            check(.distance, s.crossTrackError)
            check(.distance, s.range)
            check(.direction, s.bearingTrue)
            check(.signedSpeed, s.closingVelocity)
        case .apb(let s):
            check(.distance, s.crossTrackError)
            check(.direction, s.bearingOriginToDestination)
            check(.direction, s.bearingToDestination)
            check(.direction, s.headingToSteer)
        case .xte(let s):
            check(.distance, s.magnitude)
        case .bwc(let s):
            checkWaypointBearing(s.waypoint, check)
        case .bwr(let s):
            checkWaypointBearing(s.waypoint, check)
        case .bod(let s):
            check(.direction, s.bearingTrue)
            check(.direction, s.bearingMagnetic)
        case .wcv(let s):
            check(.signedSpeed, s.velocity)
        case .rot(let s):
            check(.rateOfTurn, s.rate)
        case .rsa(let s):
            check(.rudderAngle, s.starboardAngle)
            check(.rudderAngle, s.portAngle)
        }
        return found
    }

    private func checkSideWind(_ wind: SideWind, _ check: (Quantity, Double?) -> Void) {
        check(.sideAngle, wind.angle)
        check(.windSpeed, wind.speedKnots.map { $0 * 1852 / 3600 })
        check(.windSpeed, wind.speedMetresPerSecond)
        check(.windSpeed, wind.speedKilometresPerHour.map { $0 / 3.6 })
    }

    private func checkWaypointBearing(_ bearing: WaypointBearing, _ check: (Quantity, Double?) -> Void) {
        check(.direction, bearing.bearingTrue)
        check(.direction, bearing.bearingMagnetic)
        check(.distance, bearing.distance)
    }
}
