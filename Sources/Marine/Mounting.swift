/// How far the IMU is tilted from the boat's level: the heel and pitch it reads when the boat floats level, measured
/// by `telltale calibrate level` and taken off every sample so that heel and pitch are the boat's.
///
/// Only a tilt can be measured at rest (gravity shows no rotation about the vertical); an IMU turned in the
/// horizontal plane is described by the axis map.
public struct Mounting: Hashable, Sendable {
    /// Degrees, as the IMU reads them on a level boat (heel positive starboard down, pitch positive bow up).
    public let heel: Double
    public let pitch: Double
    /// Sensor to boat: the rotation by the mounting tilt.
    private let rotation: SIMD4<Double>

    public static let level = Mounting(heel: 0, pitch: 0)

    public init(heel: Double, pitch: Double) {
        self.heel = heel
        self.pitch = pitch
        rotation = AttitudeFilter.quaternion(roll: heel * .pi / 180, pitch: pitch * .pi / 180, yaw: 0)
    }

    /// The mounting from the mean specific force measured at rest on a level boat (body frame after the axis map);
    /// nil when the mean is not near 1 g (the boat or the IMU was moving, or the IMU is not scaled right).
    public init?(levelAccelerometer mean: SIMD3<Double>) {
        let norm = (mean * mean).sum().squareRoot()
        guard abs(norm - AttitudeFilter.gravity) < 0.1 * AttitudeFilter.gravity else { return nil }
        let down = -mean / norm
        self.init(heel: atan2(down.y, down.z) * 180 / .pi, pitch: -asin(max(-1, min(1, down.x))) * 180 / .pi)
    }

    /// A vector measured in the IMU's frame, in the boat's.
    public func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        heel == 0 && pitch == 0 ? v : AttitudeFilter.rotate(rotation, v)
    }
}

/// Decides whether the boat is still enough to take the gyroscope's mean as its bias: at a dock or at anchor in
/// calm water at start-up, or for `telltale calibrate level`.
///
/// Over its window, every gyro axis must stay within `gyroscopeSpread` of its mean and the specific force within
/// `accelerationSpread` of 1 g. Fixed storage: sums, not a buffer.
public struct StillnessDetector: Sendable {
    public var window: Double
    /// Degrees per second; a moored boat rocks at well under 1 °/s, a boat under way far more.
    public var gyroscopeSpread = 0.6
    /// m/s².
    public var accelerationSpread = 0.25

    private var elapsed = 0.0
    private var count = 0.0
    private var gyroSum = SIMD3<Double>(0, 0, 0)
    private var gyroSquares = SIMD3<Double>(0, 0, 0)
    private var accelSum = SIMD3<Double>(0, 0, 0)
    private var gyroMinimum = SIMD3<Double>(repeating: .infinity)
    private var gyroMaximum = SIMD3<Double>(repeating: -.infinity)
    private var moved = false

    public init(window: Double = 3) {
        self.window = window
    }

    /// Feeds one sample; `dt` seconds since the previous.
    public mutating func add(gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, dt: Double) {
        let norm = (accelerometer * accelerometer).sum().squareRoot()
        if abs(norm - AttitudeFilter.gravity) > accelerationSpread { moved = true }
        elapsed += max(0, dt)
        count += 1
        gyroSum += gyroscope
        gyroSquares += gyroscope * gyroscope
        accelSum += accelerometer
        gyroMinimum = pointwiseMin(gyroMinimum, gyroscope)
        gyroMaximum = pointwiseMax(gyroMaximum, gyroscope)
    }

    /// The window is full.
    public var isComplete: Bool { elapsed >= window }

    public var meanGyroscope: SIMD3<Double> { count > 0 ? gyroSum / count : .zero }
    public var meanAccelerometer: SIMD3<Double> { count > 0 ? accelSum / count : .zero }

    /// Standard deviation of each gyro axis, °/s.
    public var gyroscopeDeviation: SIMD3<Double> {
        guard count > 1 else { return .zero }
        let mean = meanGyroscope
        let variance = gyroSquares / count - mean * mean
        return SIMD3(variance.x.squareRoot(), variance.y.squareRoot(), variance.z.squareRoot())
    }

    /// The window is full and nothing moved beyond the spreads.
    public var isStill: Bool {
        guard isComplete, !moved, count > 1 else { return false }
        let mean = meanGyroscope
        let spread = pointwiseMax(gyroMaximum - mean, mean - gyroMinimum)
        return spread.max() <= gyroscopeSpread
    }

    public mutating func reset() { self = StillnessDetector(window: window) }
}
