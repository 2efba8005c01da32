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
}
