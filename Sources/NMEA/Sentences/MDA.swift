/// MDA, meteorological composite: barometric pressure, air and water temperature, humidity, dew point and the true
/// wind, as weather stations (Airmar WX, Maretron) send them.
///
/// `$--MDA,x.xx,I,x.xxx,B,x.x,C,x.x,C,x.x,x.x,x.x,C,x.x,T,x.x,M,x.x,N,x.x,M*hh`
/// pressure in inches of mercury · I · in bars · B · air °C · C · water °C · C · relative humidity % · absolute
/// humidity % · dew point °C · C · wind direction true · T · magnetic · M · wind speed knots · N · m/s · M
public struct MDA: Hashable, Sendable, DecodableSentence {
    public static let formatter = Formatter(0x4D, 0x44, 0x41)  // "MDA"

    /// Pascals per inch of mercury (at 0 °C).
    public static let pascalsPerInchOfMercury = 3386.389

    public var pressureInches: Double?
    public var pressureBars: Double?
    /// Degrees Celsius.
    public var airTemperature: Double?
    public var waterTemperature: Double?
    /// Percent.
    public var relativeHumidity: Double?
    public var dewPoint: Double?
    /// Degrees, where the wind comes from.
    public var windDirectionTrue: Double?
    public var windDirectionMagnetic: Double?
    public var windSpeedKnots: Double?
    public var windSpeedMetresPerSecond: Double?

    public init(pressureBars: Double? = nil, airTemperature: Double? = nil) {
        self.pressureBars = pressureBars
        self.airTemperature = airTemperature
    }

    /// The barometric pressure in pascals: the bars when sent (three decimals), else the inches.
    public var pressure: Double? {
        if let bars = pressureBars { return bars * 100_000 }
        return pressureInches.map { $0 * Self.pascalsPerInchOfMercury }
    }

    public init(fields r: inout FieldReader) throws(DecodeError) {
        pressureInches = try r.double()
        try r.unit("I")
        pressureBars = try r.double()
        try r.unit("B")
        airTemperature = try r.double()
        try r.unit("C")
        waterTemperature = try r.double()
        try r.unit("C")
        relativeHumidity = try r.double()
        r.skip()
        dewPoint = try r.double()
        try r.unit("C")
        windDirectionTrue = try r.double()
        try r.unit("T")
        windDirectionMagnetic = try r.double()
        try r.unit("M")
        windSpeedKnots = try r.double()
        try r.unit("N")
        windSpeedMetresPerSecond = try r.double()
        try r.unit("M")
    }
}
