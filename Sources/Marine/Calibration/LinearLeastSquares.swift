/// A small linear least-squares problem (a few unknowns, many rows) by its normal equations, solved by Gaussian
/// elimination with partial pivoting; the inverse of the normal matrix gives the unknowns' covariance.
public struct LinearLeastSquares: Sendable {
    public let unknowns: Int
    private var normal: [Double]
    private var right: [Double]
    public private(set) var rows = 0
    public private(set) var sumOfSquares = 0.0

    public init(unknowns: Int) {
        self.unknowns = unknowns
        normal = Array(repeating: 0, count: unknowns * unknowns)
        right = Array(repeating: 0, count: unknowns)
    }

    /// One row: `row · x ≈ value`, weighted.
    public mutating func add(_ row: [Double], _ value: Double, weight: Double = 1) {
        for i in 0..<unknowns {
            right[i] += weight * row[i] * value
            for j in 0..<unknowns { normal[i * unknowns + j] += weight * row[i] * row[j] }
        }
        rows += 1
        sumOfSquares += weight * value * value
    }

    /// The unknowns and the inverse of the normal matrix (the covariance, times the residuals' variance); nil when
    /// the rows do not determine them.
    public func solve() -> (x: [Double], inverse: [Double])? {
        let n = unknowns
        var a = normal
        var inverse = Array(repeating: 0.0, count: n * n)
        for i in 0..<n { inverse[i * n + i] = 1 }
        var b = right
        let scale = (0..<n).map { abs(normal[$0 * n + $0]) }.max() ?? 0
        guard scale > 0 else { return nil }
        for column in 0..<n {
            var pivot = column
            for row in column..<n where abs(a[row * n + column]) > abs(a[pivot * n + column]) { pivot = row }
            guard abs(a[pivot * n + column]) > scale * 1e-10 else { return nil }
            if pivot != column {
                for k in 0..<n {
                    a.swapAt(pivot * n + k, column * n + k)
                    inverse.swapAt(pivot * n + k, column * n + k)
                }
                b.swapAt(pivot, column)
            }
            let p = a[column * n + column]
            for k in 0..<n {
                a[column * n + k] /= p
                inverse[column * n + k] /= p
            }
            b[column] /= p
            for row in 0..<n where row != column {
                let f = a[row * n + column]
                guard f != 0 else { continue }
                for k in 0..<n {
                    a[row * n + k] -= f * a[column * n + k]
                    inverse[row * n + k] -= f * inverse[column * n + k]
                }
                b[row] -= f * b[column]
            }
        }
        return (b, inverse)
    }
}
