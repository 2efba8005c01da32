import Marine

/// The true wind direction's circular mean over a window, sampled every 10 s into fixed storage, for the wind-shift
/// alarm.
struct WindShiftTracker: Sendable {
    static let sampleInterval = 10.0
    private var samples: [PlaneVector]
    private var times: [Double]
    private var next = 0
    private var lastSample = -Double.infinity
    private let window: Double
    /// The mean direction of the samples within the window, when there are enough of them (half the window).
    private(set) var mean: Double?

    init(window: Double) {
        self.window = max(window, Self.sampleInterval)
        let capacity = Int((self.window / Self.sampleInterval).rounded(.up))
        samples = Array(repeating: PlaneVector(x: 0, y: 0), count: capacity)
        times = Array(repeating: -.infinity, count: capacity)
    }

    /// Takes the direction at `now` (degrees true, nil when unknown); returns the signed shift from the mean,
    /// degrees, positive veering (clockwise), or nil while the mean is not known.
    mutating func shift(direction: Double?, at now: Double) -> Double? {
        guard let direction else { return nil }
        if now - lastSample >= Self.sampleInterval {
            lastSample = now
            samples[next] = PlaneVector(magnitude: 1, angle: direction)
            times[next] = now
            next = (next + 1) % times.count
            var sum = PlaneVector(x: 0, y: 0)
            var count = 0
            for index in 0..<times.count where now - times[index] < window {
                sum = sum + samples[index]
                count += 1
            }
            // Half the window seen, and a wind that has a direction (not boxing the compass in a calm).
            let steady = sum.magnitude > 0.2 * Double(count)
            mean = count * 2 >= times.count && steady ? Angle.direction(sum.angle) : nil
        }
        guard let mean else { return nil }
        return Angle.relative(direction - mean)
    }
}
