/// A barograph: the barometer's last 24 hours as one mean a minute, in a fixed 1,440 slots (5.6 KB), and its
/// three-hour tendency in the words of the shipping forecast.
///
/// The tendency compares the last complete minute with the one three hours before it (within ten minutes of it:
/// a gap in the record gives no tendency rather than a wrong one). Pressures are pascals.
public struct Barograph: Sendable {
    /// The change over three hours and how the shipping forecast says it (WMO pressure tendency; the Met Office's
    /// bands: under 0.1 hPa steady, to 1.5 slowly, to 3.5 plain, to 6.0 quickly, more very rapidly).
    public struct Tendency: Hashable, Sendable {
        /// Pascals over the three hours; negative: falling.
        public var change: Double

        public init(change: Double) { self.change = change }

        public enum Rate: Hashable, Sendable {
            case steady, slowly, plain, quickly, veryRapidly
        }

        public var rate: Rate {
            let hPa = abs(change) / 100
            if hPa < 0.1 { return .steady }
            if hPa <= 1.5 { return .slowly }
            if hPa <= 3.5 { return .plain }
            if hPa <= 6.0 { return .quickly }
            return .veryRapidly
        }

        /// `steady`, `rising slowly`, `falling`, `falling quickly`, `rising very rapidly`.
        public var words: String {
            let direction = change < 0 ? "falling" : "rising"
            switch rate {
            case .steady: return "steady"
            case .slowly: return direction + " slowly"
            case .plain: return direction
            case .quickly: return direction + " quickly"
            case .veryRapidly: return direction + " very rapidly"
            }
        }

        /// `RISING`, `FALLING` or `STEADY`, as signalk-barometer-trend publishes its tendency.
        public var signalK: String { rate == .steady ? "STEADY" : change < 0 ? "FALLING" : "RISING" }

        /// `steady`, `decreasing` or `increasing`: the words of Signal K's weather API (`pressureTendency`).
        public var weatherWord: String { rate == .steady ? "steady" : change < 0 ? "decreasing" : "increasing" }
    }

    public static let minutes = 24 * 60
    /// Per minute slot: the sum and count of its readings, and which minute (since engine time 0) it holds.
    private var sums = [Float](repeating: 0, count: Barograph.minutes)
    private var counts = [UInt16](repeating: 0, count: Barograph.minutes)
    private var minuteOf = [Int32](repeating: -1, count: Barograph.minutes)
    private var latestMinute: Int?

    public init() {}

    /// A reading in pascals at engine time `time` (seconds).
    public mutating func add(_ pascals: Double, at time: Double) {
        guard pascals.isFinite, time.isFinite, time >= 0 else { return }
        let minute = Int(time / 60)
        let slot = minute % Self.minutes
        if minuteOf[slot] != Int32(truncatingIfNeeded: minute) {
            minuteOf[slot] = Int32(truncatingIfNeeded: minute)
            sums[slot] = 0
            counts[slot] = 0
        }
        sums[slot] += Float(pascals - 100_000)
        if counts[slot] < UInt16.max { counts[slot] += 1 }
        latestMinute = max(latestMinute ?? minute, minute)
    }

    /// The mean of minute `minute` (since engine time 0), when it was recorded and is within the last day.
    public func mean(minute: Int) -> Double? {
        guard minute >= 0, let latest = latestMinute, latest - minute < Self.minutes, minute <= latest else {
            return nil
        }
        let slot = minute % Self.minutes
        guard minuteOf[slot] == Int32(truncatingIfNeeded: minute), counts[slot] > 0 else { return nil }
        return Double(sums[slot]) / Double(counts[slot]) + 100_000
    }

    /// The three-hour tendency at engine time `now`: the last complete minute against three hours before it.
    public func tendency(at now: Double) -> Tendency? {
        let last = Int(now / 60) - 1
        guard let recent = mean(minute: last) ?? mean(minute: last + 1) else { return nil }
        for offset in 0...10 {
            for candidate in [last - 180 - offset, last - 180 + offset] {
                if let before = mean(minute: candidate) { return Tendency(change: recent - before) }
            }
        }
        return nil
    }

    /// The last `hours` as (minutes before `now`, pascals) a point every `step` minutes (the mean of the minutes
    /// recorded in each step), oldest first: the panel's barograph.
    public func history(at now: Double, hours: Int = 24, step: Int = 10) -> [(minutesAgo: Int, pascals: Double)] {
        let current = Int(now / 60)
        var points: [(minutesAgo: Int, pascals: Double)] = []
        var start = current - hours * 60 + 1
        while start <= current {
            var sum = 0.0
            var count = 0
            for minute in start..<min(start + step, current + 1) {
                if let value = mean(minute: minute) {
                    sum += value
                    count += 1
                }
            }
            if count > 0 { points.append((current - start, sum / Double(count))) }
            start += step
        }
        return points
    }
}
