import NMEA

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

    /// UNIX seconds of an RFC 3339 UTC time (`2026-11-25T18:00:00.000Z`, `2026-11-25T18:00Z`); nil for anything else.
    public static func unixTime(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 17, bytes.count <= 30, bytes.last == UInt8(ascii: "Z"), bytes[10] == UInt8(ascii: "T"),
            bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60
        else { return nil }
        var seconds = 0.0
        if bytes.count >= 20 {
            guard bytes[16] == UInt8(ascii: ":"), let whole = number(17..<19), whole < 61 else { return nil }
            seconds = Double(whole)
            if bytes.count > 20 {
                guard bytes[19] == UInt8(ascii: "."), let fraction = number(20..<(bytes.count - 1)) else { return nil }
                var scale = 1.0
                for _ in 20..<(bytes.count - 1) { scale *= 10 }
                seconds += Double(fraction) / scale
            }
        } else if bytes.count != 17 {
            return nil
        }
        let days = UTCDate(year: year, month: month, day: day).daysSinceEpoch
        // In doubles: seconds since 1970 pass 2^31 in 2038, which trapped `Int` on a 32-bit Pi (armhf), there a history
        // query from any phone (`from=2040-01-01T00:00Z`) ended the gateway.
        return Double(days) * 86_400 + Double(hour * 3600 + minute * 60) + seconds
    }
}
