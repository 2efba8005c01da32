import Marine

/// A deterministic generator (xorshift64*, Box-Muller for normal deviates): the same seed gives the same voyage
/// on every machine.
struct SeededRandom: Sendable {
    private var state: UInt64
    private var spare: Double?

    init(seed: UInt64) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed &* 0x2545_F491_4F6C_DD1D | 1
    }

    /// Uniform in [0, 1).
    mutating func uniform() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Double((state &* 2_685_821_657_736_338_717) >> 11) / Double(1 << 53)
    }

    /// Normal with mean 0 and the given standard deviation.
    mutating func normal(_ sigma: Double) -> Double {
        if let spare {
            self.spare = nil
            return spare * sigma
        }
        let u1 = max(uniform(), 1e-300)
        let u2 = uniform()
        let radius = (-2 * log(u1)).squareRoot()
        spare = radius * sin(2 * .pi * u2)
        return radius * cos(2 * .pi * u2) * sigma
    }
}
