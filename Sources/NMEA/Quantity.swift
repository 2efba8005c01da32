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
    /// Barometric pressure, hPa (the lowest sea-level pressure measured is 870, the highest 1084).
    case airPressure
    /// Air temperature or dew point, °C.
    case airTemperature
    /// Relative humidity, percent.
    case humidity
    /// Any other XDR measurement: a finite number.
    case measurement
    /// A position fix, degrees of latitude or longitude; the engine also refuses one no boat could have reached from
    /// the fix before.
    case position

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
        case .airPressure: 850...1100
        case .airTemperature: -90...60
        case .humidity: 0...100
        case .measurement: -1e15...1e15
        case .position: -180...180
        }
    }

    public var unit: String {
        switch self {
        case .direction, .windAngle, .sideAngle, .attitudeAngle, .variation, .rudderAngle, .position: "°"
        case .windSpeed: "m/s"
        case .boatSpeed, .groundSpeed, .signedSpeed: "kn"
        case .depth, .depthOffset, .altitude: "m"
        case .waterTemperature: "°C"
        case .rateOfTurn: "°/min"
        case .distance: "NM"
        case .airPressure: "hPa"
        case .airTemperature: "°C"
        case .humidity: "%"
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
        case .airPressure: "barometric pressure"
        case .airTemperature: "air temperature"
        case .humidity: "relative humidity"
        case .measurement: "XDR value"
        case .position: "position"
        }
    }

    /// Whether `value` (in this quantity's unit) can be true; an empty field always can.
    @inlinable
    public func admits(_ value: Double?) -> Bool {
        guard let value else { return true }
        return value.isFinite && range.contains(value)
    }
}
