/// The boat's real polar, learnt from calibrated, steady sailing: each minute (a window every 10 s) in which the
/// heading, the true wind angle and speed and the boat's speed hold steady, with no manoeuvre in it, is one point (its
/// mean true wind angle and speed, its mean speed through water); the points fall in cells of the usual table
/// (``LearntPolar/windSpeeds`` × ``LearntPolar/angles``), and a cell's speed is the upper quartile of its points (the
/// boat sailed well, not her best gust or her worst helm), with their count.
public struct PolarLearner: Sendable {
    public var window = 60.0
    public var step = 10.0
    /// Steady: the heading's circular spread and the true wind angle's standard deviation (degrees), the true wind
    /// speed's and the boat speed's standard deviation as a fraction of their mean (a second's values are noisy: a
    /// masthead unit in the waves, a paddle wheel in a gust).
    public var headingSpread = 6.0
    public var angleDeviation = 5.0
    public var windDeviation = 0.08
    public var speedDeviation = 0.05
    /// The most the boat's speed may change between the first and the last third of the minute (a fraction).
    public var speedTrend = 0.02
    public var minimumSpeed = 1.0

    /// Seconds between samples: 1 from the logs and the history on board, 10 from what a boat sends ashore by
    /// default. A window is there with four fifths of its samples (and four at least).
    public var sampleInterval = 1.0

    public init() {}

    public func learn(_ samples: [SailingSample], calibration: SailingCalibration) -> LearntPolar {
        var polar = LearntPolar()
        learn(samples, calibration: calibration, into: &polar)
        return polar
    }

    /// The steady minutes of `samples` added to `polar` (a class polar pools its boats' minutes).
    public func learn(_ samples: [SailingSample], calibration: SailingCalibration, into polar: inout LearntPolar) {
        guard let first = samples.first?.time, let last = samples.last?.time else { return }
        var start = first
        var low = 0
        while start + window <= last {
            while low < samples.count, samples[low].time < start { low += 1 }
            var high = low
            while high < samples.count, samples[high].time < start + window { high += 1 }
            if let point = steady(samples[low..<high], calibration) { polar.add(point) }
            start += step
        }
    }

    /// The window's point (TWA, TWS, STW), or nil when it was not steady sailing.
    func steady(_ window: ArraySlice<SailingSample>, _ calibration: SailingCalibration)
        -> (angle: Double, wind: Double, speed: Double)?
    {
        guard Double(window.count) >= 0.8 * self.window / sampleInterval, window.count >= 4 else { return nil }
        var heading = PlaneVector(x: 0, y: 0)
        var angles: [Double] = []
        var winds: [Double] = []
        var speeds: [Double] = []
        for sample in window {
            let wind = calibration.trueWind(sample)
            heading = heading + PlaneVector(magnitude: 1, angle: sample.heading)
            angles.append(abs(wind.angle))
            winds.append(wind.speed)
            speeds.append(calibration.speed(of: sample))
        }
        let n = Double(window.count)
        let resultant = heading.magnitude / n
        // R is 1 within rounding for a heading held exactly, and may come out a hair over it: no NaN from that.
        let spread = Angle.degrees((-2 * log(min(max(resultant, 1e-9), 1))).squareRoot())
        let angle = angles.reduce(0, +) / n
        let wind = winds.reduce(0, +) / n
        let speed = speeds.reduce(0, +) / n
        func deviation(_ values: [Double], _ mean: Double) -> Double {
            (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n).squareRoot()
        }
        // Not still gaining or losing speed after a change of course or wind: the first and last thirds' speeds agree.
        let third = speeds.count / 3
        let early = speeds[..<third].reduce(0, +) / Double(max(third, 1))
        let late = speeds[(speeds.count - third)...].reduce(0, +) / Double(max(third, 1))
        guard spread <= headingSpread, speed >= minimumSpeed, wind > 0,
            deviation(angles, angle) <= angleDeviation, deviation(winds, wind) <= windDeviation * wind,
            deviation(speeds, speed) <= speedDeviation * speed, abs(late - early) <= speedTrend * speed
        else { return nil }
        return (angle, wind, speed)
    }
}

/// A polar learnt from sailing (``PolarLearner``): by true wind speed and angle, the speed and how many steady minutes
/// it rests on, where the boat sailed; written in the table layout `polar` reads, and as CSV.
public struct LearntPolar: Sendable {
    public static let windSpeeds: [Double] = [4, 6, 8, 10, 12, 14, 16, 20, 25, 30]
    public static let angles: [Double] = [
        30, 35, 40, 45, 50, 55, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180,
    ]

    public struct Cell: Hashable, Sendable {
        /// The points' speeds, and their mean angle and wind.
        public var speeds: [Double] = []
        public var angleSum = 0.0
        public var windSum = 0.0

        public var count: Int { speeds.count }
        /// The upper quartile of the points' speeds.
        public var speed: Double {
            let sorted = speeds.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 3 / 4)]
        }
        public var angle: Double { count > 0 ? angleSum / Double(count) : 0 }
        public var wind: Double { count > 0 ? windSum / Double(count) : 0 }
    }

    /// `cells[angle index][wind speed index]`.
    public var cells = [[Cell]](
        repeating: [Cell](repeating: Cell(), count: windSpeeds.count), count: angles.count)

    public init() {}

    public var points: Int { cells.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }

    mutating func add(_ point: (angle: Double, wind: Double, speed: Double)) {
        let a = Self.nearest(point.angle, in: Self.angles)
        let w = Self.nearest(point.wind, in: Self.windSpeeds)
        // Beyond the table's ends by more than half a step: not this table's.
        guard abs(Self.angles[a] - point.angle) <= 5, abs(Self.windSpeeds[w] - point.wind) <= 2.5 else { return }
        cells[a][w].speeds.append(point.speed)
        cells[a][w].angleSum += point.angle
        cells[a][w].windSum += point.wind
    }

    static func nearest(_ value: Double, in list: [Double]) -> Int {
        var best = 0
        for (index, item) in list.enumerated() where abs(item - value) < abs(list[best] - value) { best = index }
        return best
    }

    /// The table `polar` reads: `TWA\TWS` then a row an angle, an empty cell where there is no data (`minimum`
    /// points at least).
    public func table(separator: String = ";", minimum: Int = 3) -> String {
        var lines = ["TWA\\TWS" + Self.windSpeeds.map { separator + FixedDecimal.text($0, decimals: 0) }.joined()]
        for (a, angle) in Self.angles.enumerated() {
            var line = FixedDecimal.text(angle, decimals: 0)
            for cell in cells[a] {
                line += separator + (cell.count >= minimum ? FixedDecimal.text(cell.speed, decimals: 2) : "")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every cell with data: the table's angle and wind speed, where its points lay (their mean true wind angle and
    /// speed), its speed and its count.
    public var filled: [FilledCell] {
        var out: [FilledCell] = []
        for (a, row) in cells.enumerated() {
            for (w, cell) in row.enumerated() where cell.count > 0 {
                out.append(
                    FilledCell(
                        angle: Self.angles[a], wind: Self.windSpeeds[w], meanAngle: cell.angle, meanWind: cell.wind,
                        speed: cell.speed, count: cell.count))
            }
        }
        return out
    }

    /// A cell with data, where it is in the table and where its points lay.
    public struct FilledCell: Hashable, Sendable {
        public var angle: Double
        public var wind: Double
        public var meanAngle: Double
        public var meanWind: Double
        public var speed: Double
        public var count: Int
    }
}
