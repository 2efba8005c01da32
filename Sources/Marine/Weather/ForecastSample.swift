/// What a forecast says for one place and time. Nil is a field the forecast does not carry there.
public struct ForecastSample: Hashable, Sendable {
    /// The time asked for, and the model run that made the forecast (UNIX seconds).
    public var time: Double
    public var runTime: Double
    /// 10 m wind towards the east and towards the north, m/s.
    public var windEast: Double?
    public var windNorth: Double?
    /// m/s.
    public var gust: Double?
    /// Mean sea-level pressure, pascals.
    public var pressure: Double?
    /// mm/h.
    public var precipitation: Double?
    /// Percent.
    public var cloud: Double?
    /// The sea's surface current towards the east and the north, m/s (from an ocean model's forecast).
    public var currentEast: Double?
    public var currentNorth: Double?

    public init(time: Double, runTime: Double) {
        self.time = time
        self.runTime = runTime
    }

    mutating func set(_ field: ForecastField, _ value: Double?) {
        switch field {
        case .windEast: windEast = value
        case .windNorth: windNorth = value
        case .gust: gust = value
        case .pressure: pressure = value
        case .precipitation: precipitation = value
        case .cloud: cloud = value
        case .currentEast: currentEast = value
        case .currentNorth: currentNorth = value
        }
    }

    /// The 10 m wind speed, m/s.
    public var windSpeed: Double? {
        guard let u = windEast, let v = windNorth else { return nil }
        return (u * u + v * v).squareRoot()
    }

    /// Where the wind comes from, degrees true (meteorological: a wind blowing towards the south is 0).
    public var windDirection: Double? {
        guard let u = windEast, let v = windNorth else { return nil }
        return Angle.direction(Angle.degrees(atan2(u, v)) + 180)
    }

    /// Seconds from the run to the time asked for: how far ahead the model looked.
    public var lead: Double { time - runTime }
}
