/// How late engine ticks ran against their schedule, in 0.1 ms bins up to 100 ms (the last bin holds the rest):
/// fixed storage, nothing allocated on the tick path.
public struct TickLateness: Sendable {
    public private(set) var bins = [Int](repeating: 0, count: 1001)

    public init() {}

    mutating func record(_ seconds: Double) {
        bins[max(0, min(Int(seconds * 10_000), bins.count - 1))] += 1
    }

    public var count: Int { bins.reduce(0, +) }

    /// The lateness (seconds) below which `fraction` of the ticks ran.
    public func percentile(_ fraction: Double) -> Double {
        let total = count
        guard total > 0 else { return 0 }
        var seen = 0
        for (bin, count) in bins.enumerated() {
            seen += count
            if Double(seen) >= fraction * Double(total) { return Double(bin + 1) / 10_000 }
        }
        return 0.1
    }

    /// Milliseconds with one decimal, for the log.
    public static func milliseconds(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10_000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
