/// A boat's polar: its speed through the water at each true wind angle and speed, with the upwind and downwind targets
/// (the angles of best velocity made good, and the speed there).
///
/// Held as one curve per wind speed (angle, speed), so that both common layouts fit: the table with a row per angle and
/// a column per wind speed (OpenCPN, qtVlm, ORC's sailboat data), and Expedition's row per wind speed of angle and
/// speed pairs. Speeds in knots, angles in degrees 0–180 (either side: the polar is symmetric).
public struct Polar: Hashable, Sendable {
    /// The boat's best angle and speed upwind or downwind at one wind speed.
    public struct Target: Hashable, Sendable {
        public var angle: Double
        public var speed: Double
        /// Velocity made good to windward (negative downwind), knots.
        public var windwardSpeed: Double { speed * cos(Angle.radians(angle)) }

        public init(angle: Double, speed: Double) {
            self.angle = angle
            self.speed = speed
        }
    }

    /// One wind speed's curve.
    public struct Curve: Hashable, Sendable {
        public var windSpeed: Double
        /// Ascending angles and their speeds; no zero speeds (a table's empty cells), TWA 0 aside.
        public var angles: [Double]
        public var speeds: [Double]
        public var beat: Target
        public var run: Target

        /// The curve, with the targets given (ORC's beat and gybe angles) or found on the curve.
        public init(
            windSpeed: Double, points: [(angle: Double, speed: Double)], beat: Target? = nil, run: Target? = nil
        ) {
            var all = points.filter { $0.angle >= 0 && $0.angle <= 180 && $0.speed > 0 }
            for target in [beat, run].compactMap({ $0 }) where !all.contains(where: { $0.angle == target.angle }) {
                all.append((target.angle, target.speed))
            }
            all.sort { $0.angle < $1.angle }
            self.windSpeed = windSpeed
            angles = all.map { $0.angle }
            speeds = all.map { $0.speed }
            self.beat = Target(angle: 45, speed: 0)
            self.run = Target(angle: 180, speed: 0)
            self.beat = beat ?? best(in: 20...90, windward: true)
            self.run = run ?? best(in: 90...180, windward: false)
        }

        /// Speed at `angle`: linear between the curve's points, from nothing head to wind to the first point, the last
        /// point's speed beyond it.
        public func speed(at angle: Double) -> Double {
            guard let first = angles.first else { return 0 }
            if angle <= first { return first > 0 && angle < first ? speeds[0] * max(angle, 0) / first : speeds[0] }
            var upper = 1
            while upper < angles.count && angles[upper] < angle { upper += 1 }
            guard upper < angles.count else { return speeds[speeds.count - 1] }
            if angles[upper] == angle { return speeds[upper] }
            let fraction = (angle - angles[upper - 1]) / (angles[upper] - angles[upper - 1])
            return speeds[upper - 1] + fraction * (speeds[upper] - speeds[upper - 1])
        }

        /// The angle of best VMG (upwind) or best VMG away from the wind (downwind), a tenth of a degree at a time.
        private func best(in range: ClosedRange<Double>, windward: Bool) -> Target {
            var result = Target(angle: windward ? range.upperBound : range.lowerBound, speed: 0)
            var bestVMG = -Double.infinity
            // In tenths counted as integers, so that 40° is 40, not 40 plus the sum of rounding errors.
            for tenth in Int(range.lowerBound * 10)...Int(range.upperBound * 10) {
                let angle = Double(tenth) / 10
                let speed = speed(at: angle)
                let vmg = speed * cos(Angle.radians(angle)) * (windward ? 1 : -1)
                if vmg > bestVMG + 1e-12 {
                    bestVMG = vmg
                    result = Target(angle: angle, speed: speed)
                }
            }
            return result
        }
    }

    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        case empty
        case line(Int, String)

        public var description: String {
            switch self {
            case .empty: "no polar in it"
            case .line(let line, let what): "line \(line): \(what)"
            }
        }
    }

    /// Ascending wind speeds.
    public let curves: [Curve]

    public init(curves: [Curve]) {
        self.curves = curves.filter { !$0.angles.isEmpty }.sorted { $0.windSpeed < $1.windSpeed }
    }

    /// Boat speed at a true wind angle (either sign) and speed, knots: between the two curves around the wind speed,
    /// scaled down to nothing below the lightest, the strongest curve's above it.
    public func speed(angle: Double, windSpeed: Double) -> Double {
        let folded = abs(Angle.relative(angle))
        return blend(windSpeed) { $0.speed(at: folded) }
    }

    /// The upwind target at a wind speed (between the curves' targets).
    public func beat(windSpeed: Double) -> Target {
        Target(angle: blend(windSpeed, scaled: false) { $0.beat.angle }, speed: blend(windSpeed) { $0.beat.speed })
    }

    /// The downwind target at a wind speed.
    public func run(windSpeed: Double) -> Target {
        Target(angle: blend(windSpeed, scaled: false) { $0.run.angle }, speed: blend(windSpeed) { $0.run.speed })
    }

    private func blend(_ windSpeed: Double, scaled: Bool = true, _ value: (Curve) -> Double) -> Double {
        guard let first = curves.first, let last = curves.last else { return 0 }
        if windSpeed <= first.windSpeed {
            guard scaled else { return value(first) }
            return first.windSpeed > 0 ? value(first) * max(windSpeed, 0) / first.windSpeed : value(first)
        }
        if windSpeed >= last.windSpeed { return value(last) }
        var upper = 1
        while curves[upper].windSpeed < windSpeed { upper += 1 }
        if curves[upper].windSpeed == windSpeed { return value(curves[upper]) }
        let low = curves[upper - 1]
        let high = curves[upper]
        let fraction = (windSpeed - low.windSpeed) / (high.windSpeed - low.windSpeed)
        return value(low) + fraction * (value(high) - value(low))
    }

    /// Reads the table layout (a header of wind speeds after a label such as `TWA\TWS`, then a row per angle) or
    /// Expedition's (a row per wind speed: the wind speed, then angle and speed pairs). Cells are separated by
    /// semicolons, commas, tabs or spaces; lines starting with `#` or `!` are comments; an empty cell or a 0 is no
    /// data.
    public static func parse(_ text: String) throws(ParseError) -> Polar {
        var rows: [(line: Int, cells: [Substring])] = []
        // "\r\n" is one Character in Swift: each line ending is its own separator.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("!") { continue }
            let separators: Set<Character> = [";", ",", "\t", " "]
            let spaced = !trimmed.contains(";") && !trimmed.contains(",") && !trimmed.contains("\t")
            let cells = trimmed.split(omittingEmptySubsequences: spaced) { separators.contains($0) }
            rows.append((index + 1, cells.map { $0.filter { $0 != " " } }))
        }
        guard let header = rows.first else { throw .empty }
        if DecimalText.value(header.cells.first ?? "") == nil {
            return try table(header: header, rows: rows.dropFirst())
        }
        var curves: [Curve] = []
        for row in rows {
            let numbers = row.cells.compactMap { DecimalText.value($0) }
            guard numbers.count >= 3, numbers.count % 2 == 1, numbers.count == row.cells.count else {
                throw .line(row.line, "a wind speed then angle and speed pairs")
            }
            guard numbers[0] > 0, numbers[0] < 100 else { throw .line(row.line, "\(row.cells[0]) is not a wind speed") }
            var points: [(angle: Double, speed: Double)] = []
            var index = 1
            while index + 1 < numbers.count {
                guard numbers[index] >= 0, numbers[index] <= 180 else {
                    throw .line(row.line, "\(row.cells[index]) is not an angle from 0 to 180")
                }
                guard numbers[index + 1] >= 0, numbers[index + 1] < 100 else {
                    throw .line(row.line, "\(row.cells[index + 1]) is not a boat speed")
                }
                points.append((numbers[index], numbers[index + 1]))
                index += 2
            }
            curves.append(Curve(windSpeed: numbers[0], points: points))
        }
        return try checked(Polar(curves: curves))
    }

    private static func table(
        header: (line: Int, cells: [Substring]), rows: ArraySlice<(line: Int, cells: [Substring])>
    )
        throws(ParseError) -> Polar
    {
        var windSpeeds: [Double] = []
        for cell in header.cells.dropFirst() where !cell.isEmpty {
            guard let speed = DecimalText.value(cell), speed > 0, speed < 100 else {
                throw .line(header.line, "\(cell) is not a wind speed")
            }
            windSpeeds.append(speed)
        }
        guard !windSpeeds.isEmpty else { throw .line(header.line, "no wind speeds after the first cell") }
        var points = Array(repeating: [(angle: Double, speed: Double)](), count: windSpeeds.count)
        for row in rows {
            guard let angle = DecimalText.value(row.cells.first ?? ""), angle >= 0, angle <= 180 else {
                throw .line(row.line, "\(row.cells.first ?? "") is not an angle from 0 to 180")
            }
            for (column, cell) in row.cells.dropFirst().prefix(windSpeeds.count).enumerated() where !cell.isEmpty {
                guard let speed = DecimalText.value(cell), speed >= 0, speed < 100 else {
                    throw .line(row.line, "\(cell) is not a boat speed")
                }
                points[column].append((angle, speed))
            }
        }
        return try checked(
            Polar(curves: windSpeeds.indices.map { Curve(windSpeed: windSpeeds[$0], points: points[$0]) }))
    }

    private static func checked(_ polar: Polar) throws(ParseError) -> Polar {
        guard !polar.curves.isEmpty else { throw .empty }
        return polar
    }
}
