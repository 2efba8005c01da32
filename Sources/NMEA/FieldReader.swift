/// Reads the comma-separated fields of a sentence one after another, without allocating.
///
/// Every reader returns nil for an empty field and for a field past the end of the sentence (so optional
/// trailing fields such as the FAA mode may be left out), and throws ``DecodeError/invalidField(index:)`` when
/// the field holds something that is not a value of its kind.
public struct FieldReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let fieldsEnd: Int
    /// Index of the comma before the next field, or `fieldsEnd` when no field is left.
    var cursor: Int
    /// Index of the field last read (0 is the first field after the address).
    public private(set) var index = -1

    init(bytes: UnsafeBufferPointer<UInt8>, fieldsStart: Int, fieldsEnd: Int) {
        self.bytes = bytes
        self.cursor = fieldsStart
        self.fieldsEnd = fieldsEnd
    }

    /// True when no field is left.
    public var isAtEnd: Bool { cursor >= fieldsEnd }

    /// The byte range of the next field; nil past the last field.
    public mutating func nextRange() -> Range<Int>? {
        index += 1
        guard cursor < fieldsEnd else { return nil }
        let start = cursor + 1
        var end = start
        while end < fieldsEnd && bytes[end] != UInt8(ascii: ",") { end += 1 }
        cursor = end
        return start..<end
    }

    /// Skips `count` fields.
    public mutating func skip(_ count: Int = 1) {
        for _ in 0..<count { _ = nextRange() }
    }

    /// The next field as text; nil when empty.
    public mutating func text() -> String? {
        guard let range = nextRange(), !range.isEmpty else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The next field as one character; nil when empty; throws when longer.
    public mutating func character() throws(DecodeError) -> UInt8? {
        guard let range = nextRange(), !range.isEmpty else { return nil }
        guard range.count == 1 else { throw .invalidField(index: index) }
        return bytes[range.lowerBound]
    }

    /// The next field as one of the given characters; nil when empty; throws for any other character.
    public mutating func character(oneOf allowed: StaticString) throws(DecodeError) -> UInt8? {
        guard let value = try character() else { return nil }
        let matches = allowed.withUTF8Buffer { $0.contains(value) }
        guard matches else { throw .invalidField(index: index) }
        return value
    }

    /// A unit field: empty, or one of `letters` (a value's unit as the sentence's layout fixes it). Anything else (a
    /// letter mangled on the wire with the checksum made good, `nan` where `N` stood) makes the sentence unreadable:
    /// its values are not taken, nor is it passed on.
    public mutating func unit(_ letters: StaticString) throws(DecodeError) {
        _ = try character(oneOf: letters)
    }

    /// The next field as a status letter: `A` true, `V` false, nil when empty.
    public mutating func status() throws(DecodeError) -> Bool? {
        guard let value = try character(oneOf: "AV") else { return nil }
        return value == UInt8(ascii: "A")
    }

    /// The next field as a decimal number (`12`, `-3.5`, `.5`, `+7.`); nil when empty.
    public mutating func double() throws(DecodeError) -> Double? {
        index += 1
        guard cursor < fieldsEnd else { return nil }
        // Read while finding the field's end: one pass over the bytes, not two.
        let start = cursor + 1
        let (value, end) = Self.scanDecimal(bytes, from: start, limit: fieldsEnd)
        cursor = end
        guard end > start else { return nil }
        guard let value else { throw .invalidField(index: index) }
        return value
    }

    /// The next field as a whole number; nil when empty.
    public mutating func integer() throws(DecodeError) -> Int? {
        guard let range = nextRange(), !range.isEmpty else { return nil }
        guard range.count <= 18 else { throw .invalidField(index: index) }
        var value = 0
        var negative = false
        var position = range.lowerBound
        if bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            negative = bytes[position] == UInt8(ascii: "-")
            position += 1
            guard position < range.upperBound else { throw .invalidField(index: index) }
        }
        while position < range.upperBound {
            let digit = bytes[position] &- UInt8(ascii: "0")
            // Checked: on armhf `Int` is 32 bits, so ten digits can already overflow (and trap).
            guard digit < 10, value <= (Int.max - 9) / 10 else { throw .invalidField(index: index) }
            value = value * 10 + Int(digit)
            position += 1
        }
        return negative ? -value : value
    }

    /// A latitude from two fields (`ddmm.mmmm`, `N`/`S`) as signed degrees, north positive.
    public mutating func latitude() throws(DecodeError) -> Double? {
        try coordinate(degreeDigits: 2, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"), limit: 90)
    }

    /// A longitude from two fields (`dddmm.mmmm`, `E`/`W`) as signed degrees, east positive.
    public mutating func longitude() throws(DecodeError) -> Double? {
        try coordinate(degreeDigits: 3, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"), limit: 180)
    }

    private mutating func coordinate(
        degreeDigits: Int,
        positive: UInt8,
        negative: UInt8,
        limit: Double
    ) throws(DecodeError) -> Double? {
        let value = try double()
        let valueIndex = index
        let hemisphere = try character()
        guard let value else { return nil }
        guard value >= 0 else { throw .invalidField(index: valueIndex) }
        let degrees = (value / 100).rounded(.towardZero)
        let minutes = value - degrees * 100
        guard minutes < 60, degrees <= limit else { throw .invalidField(index: valueIndex) }
        let magnitude = degrees + minutes / 60
        guard magnitude <= limit else { throw .invalidField(index: valueIndex) }
        switch hemisphere {
        case positive: return magnitude
        case negative: return -magnitude
        default: throw .invalidField(index: index)
        }
    }

    /// A UTC time of day (`hhmmss`, `hhmmss.ss`); nil when empty. Six digits before the point, or it is not a
    /// time (`359.9999999` is no 00:03:59).
    public mutating func time() throws(DecodeError) -> UTCTime? {
        guard let range = nextRange(), !range.isEmpty else { return nil }
        let digits = range.lowerBound..<min(range.lowerBound + 6, range.upperBound)
        guard range.count >= 6, digits.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }),
            range.count == 6 || bytes[range.lowerBound + 6] == UInt8(ascii: "."),
            let value = Self.parseDecimal(bytes, range), value >= 0, value < 240_000
        else {
            throw .invalidField(index: index)
        }
        let whole = Int(value)
        let hours = whole / 10000
        let minutes = whole / 100 % 100
        let seconds = whole % 100
        guard hours < 24, minutes < 60, seconds < 61 else { throw .invalidField(index: index) }
        let milliseconds = Int(((value - Double(whole)) * 1000).rounded())
        return UTCTime(millisecondsOfDay: ((hours * 60 + minutes) * 60 + seconds) * 1000 + min(milliseconds, 999))
    }

    /// A date (`ddmmyy`); nil when empty. Two-digit years are taken as 1980–2079.
    public mutating func date() throws(DecodeError) -> UTCDate? {
        guard let number = try integer() else { return nil }
        guard number >= 0, number <= 999_999 else { throw .invalidField(index: index) }
        let day = number / 10000
        let month = number / 100 % 100
        let shortYear = number % 100
        guard (1...31).contains(day), (1...12).contains(month) else { throw .invalidField(index: index) }
        return UTCDate(year: shortYear < 80 ? 2000 + shortYear : 1900 + shortYear, month: month, day: day)
    }

    /// The FAA mode indicator; nil when empty or absent.
    public mutating func faaMode() throws(DecodeError) -> FAAMode? {
        guard let value = try character() else { return nil }
        guard Address.isAddressByte(value) else { throw .invalidField(index: index) }
        return FAAMode(rawValue: value)
    }

    /// Parses `[+-]digits[.digits]` exactly (correctly rounded for up to 15 significant digits).
    static func parseDecimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        let (value, end) = scanDecimal(bytes, from: range.lowerBound, limit: range.upperBound)
        return end == range.upperBound ? value : nil
    }

    /// Reads `[+-]digits[.digits]` from `start` up to the next comma or `limit`; returns the value (nil when the
    /// field is empty or not a number) and where the field ends.
    @inline(__always)
    static func scanDecimal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> (Double?, Int) {
        var position = start
        guard position < limit else { return (nil, position) }
        var negative = false
        if bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            negative = bytes[position] == UInt8(ascii: "-")
            position &+= 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var fractionDigits = 0
        var droppedIntegerDigits = 0
        var seenPoint = false
        var valid = true
        while position < limit {
            let byte = bytes[position]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                digits &+= 1
                if significant < 18 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    if mantissa != 0 { significant &+= 1 }
                    if seenPoint { fractionDigits &+= 1 }
                } else if !seenPoint {
                    droppedIntegerDigits &+= 1
                }
            } else if byte == UInt8(ascii: ".") {
                if seenPoint { valid = false }
                seenPoint = true
            } else if byte == UInt8(ascii: ",") {
                break
            } else {
                valid = false
            }
            position &+= 1
        }
        guard valid, digits > 0 else { return (nil, position) }
        var value = Double(mantissa)
        if fractionDigits > 0 {
            value /= FieldReader.powersOfTen[min(fractionDigits, 18)]
        }
        if droppedIntegerDigits > 0 {
            value *= FieldReader.powersOfTen[min(droppedIntegerDigits, 18)]
        }
        return (negative ? -value : value, position)
    }

    static let powersOfTen: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    ]
}
