/// Settings of the ``AttitudeFilter``; the defaults are tuned for a sailing boat in a seaway.
public struct AttitudeSettings: Hashable, Sendable {
    /// Proportional gain in steady state, rad/s per radian of tilt error: about the inverse of the time constant over
    /// which accelerometer readings are trusted. Low, so that wave accelerations (zero mean over a wave period)
    /// average out instead of tilting the estimate.
    /// Tuned with `telltale bench attitude` (a grid over the gains on two sea-state traces, checked on four others).
    public var gain = 0.03
    /// Integral gain of the gyro-bias estimate in steady state, rad/s² per radian.
    public var biasGain = 0.015
    /// Gains for the start, while the attitude and the bias are still unknown; they fall to the steady gains
    /// between `startup` and `2·startup` seconds.
    public var startupGain = 0.6
    public var startupBiasGain = 0.15
    public var startup = 12.0
    /// Accelerometer readings whose magnitude is further than this from 1 g (as a fraction of g) are not used:
    /// heave and slamming.
    public var accelerationRejection = 0.12
    /// Largest gyro bias estimated, degrees per second.
    public var maximumBias = 5.0

    public init() {}
}

/// A quaternion attitude filter with gyro-bias estimation, for heel and pitch in a seaway.
///
/// Gyro rates (less the estimated bias) are integrated; the direction of the measured specific force corrects the
/// tilt through a proportional-integral loop (Mahony's form), the integral being the gyro bias. The accelerometer
/// is trusted only slowly in steady state and not at all when its magnitude says the boat is accelerating
/// vertically, so waves do not tilt the estimate. Body frame FRD: x forward, y starboard, z down; heel positive
/// starboard down, pitch positive bow up. Time comes in as `dt`; nothing here reads a clock or allocates.
public struct AttitudeFilter: Sendable {
    public let settings: AttitudeSettings
    /// Body to earth (NED), as w, x, y, z.
    private var q = SIMD4<Double>(1, 0, 0, 0)
    /// rad/s.
    private var bias = SIMD3<Double>(0, 0, 0)
    private var rate = SIMD3<Double>(0, 0, 0)
    private var elapsed = 0.0
    private var initialised = false
    public static let gravity = 9.80665

    public init(settings: AttitudeSettings = AttitudeSettings()) {
        self.settings = settings
    }

    /// Feeds one sample.
    /// - Parameters:
    ///   - gyroscope: degrees per second about x, y, z (FRD).
    ///   - accelerometer: specific force in m/s² (level and at rest about (0, 0, -9.81)).
    ///   - dt: seconds since the previous sample.
    public mutating func update(gyroscope: SIMD3<Double>, accelerometer: SIMD3<Double>, dt: Double) {
        guard dt > 0, dt < 1 else { return }
        let omega = gyroscope * (.pi / 180)
        let norm = (accelerometer * accelerometer).sum().squareRoot()
        if !initialised {
            // Start level with the first usable reading rather than spend the start-up converging from level.
            if norm > 0.5 * Self.gravity {
                let down = -accelerometer / norm
                let roll = atan2(down.y, down.z)
                let pitch = -asin(max(-1, min(1, down.x)))
                q = Self.quaternion(roll: roll, pitch: pitch, yaw: 0)
                initialised = true
            }
        }
        elapsed += dt
        let blend = min(max((elapsed - settings.startup) / settings.startup, 0), 1)
        let kp = settings.startupGain + (settings.gain - settings.startupGain) * blend
        let ki = settings.startupBiasGain + (settings.biasGain - settings.startupBiasGain) * blend

        var correction = SIMD3<Double>(0, 0, 0)
        if norm > 0, abs(norm - Self.gravity) < settings.accelerationRejection * Self.gravity {
            let measuredDown = -accelerometer / norm
            let estimatedDown = Self.rotateToBody(q, SIMD3(0, 0, 1))
            // The error that turns the estimated down towards the measured one is a × v: with dv/dt = v × ω for
            // a fixed earth vector seen from the body, ω = k·(a × v) gives dv/dt = k·(a − v(v·a)).
            let error = Self.cross(measuredDown, estimatedDown)
            correction = kp * error
            bias -= ki * error * dt
            let limit = settings.maximumBias * .pi / 180
            bias = SIMD3(
                min(max(bias.x, -limit), limit), min(max(bias.y, -limit), limit), min(max(bias.z, -limit), limit))
        }
        rate = omega - bias
        let corrected = rate + correction
        // q̇ = ½ q ⊗ (0, ω)
        let (w, x, y, z) = (q[0], q[1], q[2], q[3])
        let derivative =
            0.5
            * SIMD4<Double>(
                -x * corrected.x - y * corrected.y - z * corrected.z,
                w * corrected.x + y * corrected.z - z * corrected.y,
                w * corrected.y - x * corrected.z + z * corrected.x,
                w * corrected.z + x * corrected.y - y * corrected.x)
        q += derivative * dt
        q /= (q * q).sum().squareRoot()
    }

    /// Degrees, positive starboard side down.
    public var heel: Double {
        let (w, x, y, z) = (q[0], q[1], q[2], q[3])
        return atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)) * 180 / .pi
    }

    /// Degrees, positive bow up.
    public var pitch: Double {
        let (w, x, y, z) = (q[0], q[1], q[2], q[3])
        return asin(max(-1, min(1, 2 * (w * y - z * x)))) * 180 / .pi
    }

    /// Body rates less the estimated bias, degrees per second: x roll (positive rolling to starboard),
    /// y pitch (positive bow rising).
    public var rollRate: Double { rate.x * 180 / .pi }
    public var pitchRate: Double { rate.y * 180 / .pi }

    /// Rate of turn about the vertical, degrees per second, positive turning to starboard.
    public var rateOfTurn: Double {
        let earth = Self.rotateToEarth(q, rate)
        return earth.z * 180 / .pi
    }

    /// The estimated gyro bias, degrees per second.
    public var gyroBias: SIMD3<Double> { bias * (180 / .pi) }

    mutating func setBias(_ radiansPerSecond: SIMD3<Double>) { bias = radiansPerSecond }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// An earth-frame vector seen in the body frame: Rᵀ·v.
    static func rotateToBody(_ q: SIMD4<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
        rotate(SIMD4(q[0], -q[1], -q[2], -q[3]), v)
    }

    static func rotateToEarth(_ q: SIMD4<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> { rotate(q, v) }

    /// q ⊗ v ⊗ q*.
    static func rotate(_ q: SIMD4<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
        let u = SIMD3(q[1], q[2], q[3])
        let s = q[0]
        return 2 * (u * v).sum() * u + (s * s - (u * u).sum()) * v + 2 * s * cross(u, v)
    }

    static func quaternion(roll: Double, pitch: Double, yaw: Double) -> SIMD4<Double> {
        let (cr, sr) = (cos(roll / 2), sin(roll / 2))
        let (cp, sp) = (cos(pitch / 2), sin(pitch / 2))
        let (cy, sy) = (cos(yaw / 2), sin(yaw / 2))
        return SIMD4(
            cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy)
    }
}

extension AttitudeFilter {
    /// Starts the bias estimate from a measurement (degrees per second, body frame): the gyro's mean over a still
    /// start, or the one stored by `telltale calibrate level`. The filter goes on tracking it.
    public mutating func setGyroBias(_ degreesPerSecond: SIMD3<Double>) {
        let limit = settings.maximumBias
        let clamped = SIMD3(
            min(max(degreesPerSecond.x, -limit), limit), min(max(degreesPerSecond.y, -limit), limit),
            min(max(degreesPerSecond.z, -limit), limit))
        setBias(clamped * (.pi / 180))
    }

    /// A body-frame vector in the level frame (heel and pitch taken out, heading kept): x forward along the
    /// boat's heading, horizontal; z down.
    public func levelled(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let roll = heel * .pi / 180
        let pitchAngle = pitch * .pi / 180
        return Self.rotate(Self.quaternion(roll: roll, pitch: pitchAngle, yaw: 0), v)
    }
}

/// Heading from a magnetometer, compensated for heel and pitch.
///
/// The field measured in the body frame is turned into the level frame with the attitude filter's heel and pitch,
/// and the heading is the direction of its horizontal part. Hard-iron offsets (a fixed field from the boat's own
/// steel and wiring, µT) are taken off first. The error grows with the tilt error times the tangent of the magnetic
/// dip (about 1.7 × at 60° dip), which is why the boat's compass stays the primary heading.
public enum MagneticHeading {
    /// Degrees magnetic, 0-360; nil when the horizontal field is too weak to give a direction.
    public static func heading(levelField m: SIMD3<Double>) -> Double? {
        let horizontal = (m.x * m.x + m.y * m.y).squareRoot()
        guard horizontal > 1 else { return nil }
        var degrees = atan2(-m.y, m.x) * 180 / .pi
        if degrees < 0 { degrees += 360 }
        return degrees
    }
}
