/// Gusts as meteorological practice defines them: the highest 3-second mean of the wind speed over the last ten
/// minutes (WMO No. 8). Fed any number of readings a second; keeps one mean a second in 600 slots.
public struct GustMeter: Sendable {
    public static let seconds = 600
    private var sums = [Float](repeating: 0, count: GustMeter.seconds)
    private var counts = [UInt16](repeating: 0, count: GustMeter.seconds)
    private var secondOf = [Int32](repeating: -1, count: GustMeter.seconds)

    public init() {}

    /// A wind speed (m/s) at engine time `time`.
    public mutating func add(_ speed: Double, at time: Double) {
        guard speed.isFinite, speed >= 0, time.isFinite, time >= 0 else { return }
        let second = Int(time)
        let slot = second % Self.seconds
        if secondOf[slot] != Int32(truncatingIfNeeded: second) {
            secondOf[slot] = Int32(truncatingIfNeeded: second)
            sums[slot] = 0
            counts[slot] = 0
        }
        sums[slot] += Float(speed)
        if counts[slot] < UInt16.max { counts[slot] += 1 }
    }

    private func mean(_ second: Int) -> Double? {
        guard second >= 0 else { return nil }
        let slot = second % Self.seconds
        guard secondOf[slot] == Int32(truncatingIfNeeded: second), counts[slot] > 0 else { return nil }
        return Double(sums[slot]) / Double(counts[slot])
    }

    /// The gust at engine time `now` (m/s): the highest mean of three whole consecutive seconds in the ten minutes
    /// before it; nil until three such seconds have been measured.
    public func gust(at now: Double) -> Double? {
        let current = Int(now) - 1
        var best: Double?
        // Each second's mean read once, the last two carried along (this runs once a second over 600 slots).
        var second = current - Self.seconds + 1
        var a = mean(second)
        var b = mean(second + 1)
        second += 2
        while second <= current {
            let c = mean(second)
            if let a, let b, let c {
                let value = (a + b + c) / 3
                if best == nil || value > best! { best = value }
            }
            a = b
            b = c
            second += 1
        }
        return best
    }
}
