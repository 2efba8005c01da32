/// The fields a forecast grid holds, each stored as a 16-bit step of a fixed size from a fixed offset, so that the
/// importer and the reader agree without a table in the file, and a value beyond what the atmosphere does is
/// refused when it is written, not found later.
///
/// Units are SI as everywhere inside: wind components and gusts in m/s, pressure in pascals; precipitation is a rate
/// in millimetres an hour (the mean over the interval that ends at the field's time), cloud a percentage.
public enum ForecastField: UInt8, CaseIterable, Hashable, Sendable {
    /// 10 m wind towards the east (U), m/s.
    case windEast = 1
    /// 10 m wind towards the north (V), m/s.
    case windNorth = 2
    /// 10 m wind gust, m/s.
    case gust = 3
    /// Mean sea-level pressure, pascals.
    case pressure = 4
    /// Precipitation, mm/h over the interval ending at the field's time.
    case precipitation = 5
    /// Total cloud cover, percent.
    case cloud = 6
    /// The sea's surface current towards the east and towards the north, m/s (an ocean model's: RTOFS, Copernicus).
    case currentEast = 7
    case currentNorth = 8

    /// A field of the sea, not of the air: a forecast of it is chosen apart from the weather's.
    public var isOcean: Bool { self == .currentEast || self == .currentNorth }

    /// The value of one stored step.
    public var scale: Double {
        switch self {
        case .windEast, .windNorth, .gust: 0.01
        case .pressure: 1
        case .precipitation: 0.01
        case .cloud: 0.01
        case .currentEast, .currentNorth: 0.001
        }
    }

    /// The value stored as 0.
    public var offset: Double { self == .pressure ? 100_000 : 0 }

    /// What the atmosphere can hold; a value outside is not a forecast but a broken file.
    public var range: ClosedRange<Double> {
        switch self {
        case .windEast, .windNorth: -150...150
        case .gust: 0...150
        case .pressure: 85_000...110_000
        case .precipitation: 0...300
        case .cloud: 0...100
        case .currentEast, .currentNorth: -10...10
        }
    }

    /// The other component of the same vector (the wind's, the current's), nil for a scalar field.
    public var partner: ForecastField? {
        switch self {
        case .windEast: .windNorth
        case .windNorth: .windEast
        case .currentEast: .currentNorth
        case .currentNorth: .currentEast
        default: nil
        }
    }

    /// The most the vector this field is a component of can be: each component within ``range`` is not enough (two
    /// of 150 m/s make 212).
    public var speedLimit: Double? {
        switch self {
        case .windEast, .windNorth: 150
        case .currentEast, .currentNorth: 10
        default: nil
        }
    }

    /// Whether a vector of these components is one the atmosphere or the sea can hold.
    public func holds(_ a: Double, _ b: Double) -> Bool {
        guard let limit = speedLimit else { return true }
        return a * a + b * b <= limit * limit
    }

    /// The stored step for `value`, or nil when it is not finite or out of ``range``.
    public func stored(_ value: Double) -> Int16? {
        guard value.isFinite, range.contains(value) else { return nil }
        let steps = ((value - offset) / scale).rounded()
        guard steps > Double(Int16.min), steps <= Double(Int16.max) else { return nil }
        return Int16(steps)
    }

    /// The value of a stored step; nil for ``ForecastGrid/missing``, and for a step outside ``range``, which the
    /// importer never writes: a file damaged since (a card's flipped bits) said 635 kn of wind and 1,290 hPa until
    /// 2026-12-01, to the panel and the router alike.
    public func value(_ stored: Int16) -> Double? {
        guard stored != ForecastGrid.missing else { return nil }
        let value = offset + Double(stored) * scale
        return range.contains(value) ? value : nil
    }

    /// The name used in files, logs and the command line.
    public var name: String {
        switch self {
        case .windEast: "wind-east"
        case .windNorth: "wind-north"
        case .gust: "gust"
        case .pressure: "pressure"
        case .precipitation: "precipitation"
        case .cloud: "cloud"
        case .currentEast: "current-east"
        case .currentNorth: "current-north"
        }
    }
}
