/// One value the calibration learner found, how sure it is, and what it rests on.
public struct LearntValue: Hashable, Sendable {
    public enum Status: Hashable, Sendable {
        /// Learnt, its uncertainty within the bound: it may be applied.
        case sure
        /// Learnt, but from too little or too scattered data to apply yet.
        case unsure
        /// Not enough manoeuvres (or fixes) to say anything.
        case notEnoughData
        /// A value no working sensor gives: said, never applied.
        case sensorFault(String)
        /// Not sure, but applied: what it replaces is surely wrong (the log changed on the newest day).
        case provisional(String)
    }

    public var value: Double
    /// One standard error, in the value's unit.
    public var uncertainty: Double
    /// The manoeuvres it was learnt from.
    public var count: Int
    public var status: Status

    public init(value: Double, uncertainty: Double, count: Int, status: Status) {
        self.value = value
        self.uncertainty = uncertainty
        self.count = count
        self.status = status
    }

    public static func none(_ identity: Double, count: Int) -> LearntValue {
        LearntValue(value: identity, uncertainty: .infinity, count: count, status: .notEnoughData)
    }

    public var isSure: Bool { status == .sure }

    /// Whether it is applied: sure, or provisional.
    public var isApplied: Bool {
        if case .provisional = status { return true }
        return isSure
    }

    /// The status as a word (`sure`, `unsure`, `not enough data`, `sensor fault: ...`).
    public var words: String {
        switch status {
        case .sure: "sure"
        case .unsure: "unsure"
        case .notEnoughData: "not enough data"
        case .sensorFault(let why): "sensor fault: " + why
        case .provisional(let why): "provisional: " + why
        }
    }
}

/// Robust statistics of a handful of values.
public enum RobustStatistics {
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The standard error of the median, from the median absolute deviation (1.4826 MAD estimates sigma for normal
    /// data; the median's error is 1.2533 sigma over root n).
    public static func medianError(_ values: [Double]) -> Double {
        guard values.count > 1 else { return .infinity }
        let m = median(values)
        let mad = median(values.map { abs($0 - m) })
        return 1.2533 * 1.4826 * mad / Double(values.count).squareRoot()
    }

    /// The same when the values come from several days (`days`, one index a value): what differs from day to day (the
    /// wind's own habits on a lake, a log cleaned, the sails changed) does not average out within a day, so a median
    /// over many tacks of few days is less sure than their number says. The larger of ``medianError(_:)`` and the
    /// error from the days' own medians spread about the whole's (the clustered form of a mean's error,
    /// `√(Σ n²(m − M)² · g/(g − 1)) / N`, times 1.2533 for a median), with three days or more; with fewer the values'
    /// own error alone.
    public static func medianError(_ values: [Double], days: [Int]) -> Double {
        let within = medianError(values)
        var byDay: [Int: [Double]] = [:]
        for (value, day) in zip(values, days) { byDay[day, default: []].append(value) }
        guard byDay.count >= 3, values.count == days.count else { return within }
        let whole = median(values)
        var sum = 0.0
        for dayValues in byDay.values {
            let n = Double(dayValues.count)
            let d = median(dayValues) - whole
            sum += n * n * d * d
        }
        let g = Double(byDay.count)
        let between = 1.2533 * (sum * g / (g - 1)).squareRoot() / Double(values.count)
        return max(within, between)
    }
}
