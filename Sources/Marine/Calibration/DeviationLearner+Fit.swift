/// The deviation learner's least squares (``DeviationLearner``).
extension DeviationLearner {
    /// The leeway's form: `K × heel / STW²` (the heel known), or one angle to leeward close-hauled.
    enum LeewayForm {
        case heel, upwind
    }

    /// The seven unknowns (the curve's five terms, the leeway's, and the log's factor less one), the inverse of the
    /// normal matrix and the residuals' variance; each piece's residual (knots).
    struct Fit {
        var x: [Double]
        var inverse: [Double]
        var variance: Double
        var residuals: [Double]
        static let unknowns = 7

        /// One standard error of `row · x`.
        func error(_ row: [Double]) -> Double {
            var sum = 0.0
            for i in 0..<Self.unknowns {
                for j in 0..<Self.unknowns { sum += row[i] * inverse[i * Self.unknowns + j] * row[j] }
            }
            return (max(0, sum) * variance).squareRoot()
        }
    }

    /// The fit of `pieces`: two rows each (north, east), each half hour's rows centred (its current removed). The
    /// log's factor is an unknown too (`G = k V u(h + δ + λ) + c`): a log that reads low leaves a residual along the
    /// track that the centring would otherwise mix into the deviation.
    static func fit(_ pieces: [Piece], leeway: LeewayForm, bin seconds: Double) -> Fit? {
        var rows: [[Double]] = []
        var values: [Double] = []
        var groups: [Int: [Int]] = [:]
        for (index, piece) in pieces.enumerated() {
            let h = Angle.radians(piece.heading)
            let water = PlaneVector(magnitude: piece.speed, angle: piece.heading)
            // The water velocity's change for a degree more of heading.
            let k = piece.speed * Double.pi / 180
            let terms = DeviationCurve.terms(piece.heading) + [piece.leewayTerm]
            rows.append(terms.map { $0 * -k * sin(h) } + [water.x])
            values.append(piece.ground.x - water.x)
            rows.append(terms.map { $0 * k * cos(h) } + [water.y])
            values.append(piece.ground.y - water.y)
            let bin = Int((piece.time / seconds).rounded(.down))
            groups[bin, default: []].append(contentsOf: [2 * index, 2 * index + 1])
        }
        // Each half hour's current removed: its north rows and its east rows centred apart.
        for members in groups.values {
            for axis in 0..<2 {
                let chosen = members.filter { $0 % 2 == axis }
                let n = Double(chosen.count)
                let meanValue = chosen.reduce(0) { $0 + values[$1] } / n
                var meanRow = [Double](repeating: 0, count: Fit.unknowns)
                for i in chosen {
                    for j in 0..<Fit.unknowns { meanRow[j] += rows[i][j] / n }
                }
                for i in chosen {
                    values[i] -= meanValue
                    for j in 0..<Fit.unknowns { rows[i][j] -= meanRow[j] }
                }
            }
        }
        var squares = LinearLeastSquares(unknowns: Fit.unknowns)
        for (row, value) in zip(rows, values) { squares.add(row, value) }
        guard let (x, inverse) = squares.solve() else { return nil }
        var residuals: [Double] = []
        var sum = 0.0
        for index in pieces.indices {
            var e2 = 0.0
            for r in [2 * index, 2 * index + 1] {
                let e = values[r] - zip(rows[r], x).reduce(0) { $0 + $1.0 * $1.1 }
                e2 += e * e
            }
            sum += e2
            residuals.append(e2.squareRoot())
        }
        let freedom = max(1, 2 * pieces.count - Fit.unknowns - 2 * groups.count)
        return Fit(x: x, inverse: inverse, variance: sum / Double(freedom), residuals: residuals)
    }
}

/// What ``DeviationLearner`` found: the curve, its largest deviation over the compass rose (with the largest error),
/// the leeway (`K` in `K × heel / STW²` when `leewayByHeel`, else the close-hauled leeway in degrees), the steady
/// pieces it rests on and how many octants of the compass they cover.
public struct DeviationReport: Hashable, Sendable {
    public var curve: DeviationCurve
    public var deviation: LearntValue
    public var leeway: LearntValue
    public var leewayByHeel: Bool
    public var pieces: Int
    public var octants: Int
}
