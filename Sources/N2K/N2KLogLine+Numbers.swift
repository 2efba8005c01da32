/// The numbers of a recorded bus's lines: hex and decimal fields, seconds, ISO 8601 times, days from a date.
extension N2KLogLine {

    // MARK: Numbers

    static func split(_ text: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        text.split(whereSeparator: { $0 == 32 || $0 == 9 || $0 == 13 || $0 == 10 })
    }

    static func hex(_ text: ArraySlice<UInt8>) -> UInt64? {
        guard !text.isEmpty, text.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in text {
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 97...102: digit = byte - 87
            case 65...70: digit = byte - 55
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    static func integer(_ text: ArraySlice<UInt8>) -> Int64? {
        let trimmed = text.filter { $0 != 32 && $0 != 13 && $0 != 10 }
        guard !trimmed.isEmpty, trimmed.count <= 12 else { return nil }
        var value: Int64 = 0
        for byte in trimmed {
            guard byte >= 48 && byte <= 57 else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        return value
    }

    /// `1542316311.158018`
    static func seconds(_ text: ArraySlice<UInt8>) -> Double? {
        var whole: Int64 = 0
        var fraction = 0.0
        var scale = 0.1
        var seenPoint = false
        var digits = 0
        for byte in text {
            if byte == UInt8(ascii: ".") {
                guard !seenPoint else { return nil }
                seenPoint = true
                continue
            }
            guard byte >= 48 && byte <= 57 else { return nil }
            digits += 1
            guard digits <= 18 else { return nil }
            if seenPoint {
                fraction += Double(byte - 48) * scale
                scale /= 10
            } else {
                whole = whole * 10 + Int64(byte - 48)
            }
        }
        return digits > 0 ? Double(whole) + fraction : nil
    }

    /// `2016-02-28T19:57:02.364Z` (or with a space, or `-` between date and time as canboat's older logs) as UNIX
    /// seconds.
    static func isoTime(_ text: ArraySlice<UInt8>) -> Double? {
        Array(text).withUnsafeBufferPointer { isoTime($0) }
    }

    static func isoTime(_ digits: UnsafeBufferPointer<UInt8>) -> Double? {
        guard digits.count >= 19 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                guard digits[index] >= 48 && digits[index] <= 57 else { return nil }
                value = value * 10 + Int(digits[index] - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month), (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if digits.count > 20, digits[19] == UInt8(ascii: ".") {
            var scale = 0.1
            for byte in digits[20...] {
                guard byte >= 48 && byte <= 57 else { break }
                fraction += Double(byte - 48) * scale
                scale /= 10
            }
        }
        return Double(daysFromCivil(year, month, day)) * 86_400 + Double(hour * 3600 + minute * 60 + second) + fraction
    }

    /// `17:33:21.107`: seconds of the day.
    static func dayTime(_ text: ArraySlice<UInt8>) -> Double? {
        let parts = text.split(separator: UInt8(ascii: ":"))
        guard parts.count == 3, let hours = integer(parts[0]), let minutes = integer(parts[1]),
            let rest = seconds(parts[2])
        else { return nil }
        return Double(hours * 3600 + minutes * 60) + rest
    }

    /// Days since 1970-01-01 of a date in the proleptic Gregorian calendar.
    public static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
