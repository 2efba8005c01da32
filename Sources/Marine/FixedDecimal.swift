/// Numbers as text with a fixed number of decimals, without Foundation: for CSV traces, reports and the state file.
public enum FixedDecimal {
    /// `-0.25` with 3 decimals is `-0.250`; a value that rounds to zero has no sign; not finite gives "". A number too
    /// big for its decimals in 64 bits (1e13 with 7) loses decimals until it fits; one past 9·10^18 gives "", as not
    /// finite (a hostile value once trapped here).
    public static func text(_ value: Double, decimals: Int) -> String {
        guard value.isFinite, abs(value) < 9e18 else { return "" }
        var decimals = max(0, decimals)
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        while decimals > 0 && abs(value) * scale >= 9e18 {
            decimals -= 1
            scale /= 10
        }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = String(scaled % Int64(scale))
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
