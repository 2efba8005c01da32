/// A UTC time of day with millisecond resolution.
public struct UTCTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Milliseconds since midnight UTC (0 ..< 86 401 000; a leap second is allowed).
    public var millisecondsOfDay: Int

    public init(millisecondsOfDay: Int) {
        self.millisecondsOfDay = millisecondsOfDay
    }

    public init(hours: Int, minutes: Int, seconds: Double) {
        let fraction = seconds.isFinite ? min(max(seconds, 0), 61) : 0
        millisecondsOfDay = (hours &* 60 &+ minutes) &* 60_000 &+ Int((fraction * 1000).rounded())
    }

    /// The time of day of a moment given in seconds (UNIX or since any midnight UTC).
    public init(secondsOfDay seconds: Double) {
        let ofDay = seconds - (seconds / 86_400).rounded(.down) * 86_400
        millisecondsOfDay = Int((ofDay * 1000).rounded()) % 86_400_000
    }

    public var hours: Int { millisecondsOfDay / 3_600_000 }
    public var minutes: Int { millisecondsOfDay / 60_000 % 60 }
    /// Seconds with their fraction.
    public var seconds: Double { Double(millisecondsOfDay % 60_000) / 1000 }
    /// Seconds since midnight.
    public var secondsOfDay: Double { Double(millisecondsOfDay) / 1000 }

    public static func < (lhs: UTCTime, rhs: UTCTime) -> Bool { lhs.millisecondsOfDay < rhs.millisecondsOfDay }

    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let centiseconds = millisecondsOfDay % 1000 / 10
        return two(hours) + two(minutes) + two(millisecondsOfDay / 1000 % 60) + "." + two(centiseconds)
    }
}

/// A calendar date.
public struct UTCDate: Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (proleptic Gregorian calendar).
    public var daysSinceEpoch: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let shiftedMonth = (month + 9) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day counted from 1970-01-01.
    /// The UTC date of a UNIX time (seconds).
    public init(unixTime: Double) {
        self.init(daysSinceEpoch: Int((unixTime / 86_400).rounded(.down)))
    }

    public init(daysSinceEpoch days: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}

/// The FAA mode indicator of NMEA 2.3 and later: `A` autonomous, `D` differential, `E` estimated, `M` manual,
/// `S` simulator, `N` not valid, and the RTK modes `P`, `R`, `F`.
public struct FAAMode: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let autonomous = FAAMode(rawValue: UInt8(ascii: "A"))
    public static let differential = FAAMode(rawValue: UInt8(ascii: "D"))
    public static let estimated = FAAMode(rawValue: UInt8(ascii: "E"))
    public static let manual = FAAMode(rawValue: UInt8(ascii: "M"))
    public static let simulator = FAAMode(rawValue: UInt8(ascii: "S"))
    public static let notValid = FAAMode(rawValue: UInt8(ascii: "N"))

    /// Whether data in this mode can be used: autonomous, differential, precise and RTK modes.
    public var isValid: Bool {
        switch rawValue {
        case UInt8(ascii: "A"), UInt8(ascii: "D"), UInt8(ascii: "P"), UInt8(ascii: "R"), UInt8(ascii: "F"): true
        default: false
        }
    }

    public var description: String { String(Unicode.Scalar(rawValue)) }
}

/// GGA's quality indicator and the FAA mode are two codings of the same thing: how the fix was made.
extension FAAMode {
    /// The mode of a GGA quality: 1 GPS, 2 differential, 3 precise, 4 RTK fixed, 5 RTK float, 6 estimated (dead
    /// reckoning), 8 simulated; nil for 0 (no fix) and unknown values.
    public init?(ggaQuality quality: Int) {
        switch quality {
        case 1: self = .autonomous
        case 2: self = .differential
        case 3: self = FAAMode(rawValue: UInt8(ascii: "P"))
        case 4: self = FAAMode(rawValue: UInt8(ascii: "R"))
        case 5: self = FAAMode(rawValue: UInt8(ascii: "F"))
        case 6: self = .estimated
        case 8: self = .simulator
        default: return nil
        }
    }

    /// The GGA quality of this mode; 1 for a fix that said no more.
    public var ggaQuality: Int {
        switch rawValue {
        case UInt8(ascii: "D"): 2
        case UInt8(ascii: "P"): 3
        case UInt8(ascii: "R"): 4
        case UInt8(ascii: "F"): 5
        case UInt8(ascii: "E"): 6
        case UInt8(ascii: "S"): 8
        default: 1
        }
    }
}

/// A side: the steer direction of XTE, APB and RMB, or the side of the wind in VWR/VWT.
public enum Side: UInt8, Hashable, Sendable {
    case left = 76  // "L"
    case right = 82  // "R"
}

/// The unit of a speed field.
public enum SpeedUnit: UInt8, Hashable, Sendable {
    case knots = 78  // "N"
    case metresPerSecond = 77  // "M"
    case kilometresPerHour = 75  // "K"

    /// Converts a value in this unit to knots.
    public func knots(_ value: Double) -> Double {
        switch self {
        case .knots: value
        case .metresPerSecond: value * 3600 / 1852
        case .kilometresPerHour: value * 1000 / 1852
        }
    }
}

/// The reference of a bearing: true or magnetic.
public enum BearingReference: UInt8, Hashable, Sendable {
    case `true` = 84  // "T"
    case magnetic = 77  // "M"
}

extension FieldReader {
    /// A side letter (`L`/`R`); nil when empty.
    public mutating func side() throws(DecodeError) -> Side? {
        guard let value = try character(oneOf: "LR") else { return nil }
        return Side(rawValue: value)
    }

    /// A signed angle from a magnitude and an `E`/`W` letter (east positive); nil when the value is empty.
    public mutating func eastWest() throws(DecodeError) -> Double? {
        let value = try double()
        let letter = try character(oneOf: "EW")
        guard let value else { return nil }
        return letter == UInt8(ascii: "W") ? -value : value
    }

    /// A bearing reference letter (`T`/`M`); nil when empty.
    public mutating func bearingReference() throws(DecodeError) -> BearingReference? {
        guard let value = try character(oneOf: "TM") else { return nil }
        return BearingReference(rawValue: value)
    }
}
