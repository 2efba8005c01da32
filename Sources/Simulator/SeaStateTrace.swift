import Marine

/// A synthetic IMU trace of a boat in a seaway, with the true attitude beside every sample: the reference for the
/// attitude filter's accuracy benchmark. Rolling 12 ± 8° with a 6 s period plus a faster component, pitching a few
/// degrees, wave accelerations up to 0.8 m/s², a constant gyro bias of 0.5°/s, sensor noise; 100 Hz.
public struct SeaStateTrace: Sendable {
    public struct Sample: Sendable {
        public var imu: IMUSample
        public var heel: Double
        public var pitch: Double
        /// Degrees magnetic, the truth for the magnetometer heading.
        public var heading: Double
        /// µT, body frame, with noise.
        public var magnetometer: SIMD3<Double>
    }

    public var seed: UInt64 = 1
    public var duration = 300.0
    public var rate = 100.0
    public var meanHeel = 12.0
    public var rollAmplitude = 8.0
    public var rollPeriod = 6.0
    public var pitchAmplitude = 3.0
    public var accelerationAmplitude = 0.8
    public var gyroBias = SIMD3<Double>(0.5, -0.5, 0.5)
    public var gyroNoise = 0.1
    public var accelerometerNoise = 0.05
    /// The boat's mean magnetic heading, degrees; she yaws ±4° about it with the waves.
    public var heading = 35.0
    /// The earth's field: horizontal strength (µT) and dip (degrees, positive down: the northern hemisphere).
    public var fieldHorizontal = 20.0
    public var fieldDip = 60.0
    public var magnetometerNoise = 0.3

    public init() {}

    public static let csvHeader = "time_s,ax,ay,az,gx,gy,gz,heel,pitch"

    /// v_body = Rx(φ)·Ry(θ)·Rz(ψ)·v_earth for ZYX Euler angles, written out here independently of the filter.
    static func earthToBody(_ v: SIMD3<Double>, roll: Double, pitch: Double, yaw: Double) -> SIMD3<Double> {
        let (cp, sp) = (cos(yaw), sin(yaw))
        let z = SIMD3(cp * v.x + sp * v.y, -sp * v.x + cp * v.y, v.z)
        let (ct, st) = (cos(pitch), sin(pitch))
        let y = SIMD3(ct * z.x - st * z.z, z.y, st * z.x + ct * z.z)
        let (cr, sr) = (cos(roll), sin(roll))
        return SIMD3(y.x, cr * y.y + sr * y.z, -sr * y.y + cr * y.z)
    }

    public func run(_ body: (Sample) -> Void) {
        var random = SeededRandom(seed: seed)
        // Its own stream, so that adding the magnetometer left the other sensors' traces as they were.
        var magneticRandom = SeededRandom(seed: seed &+ 0x6D61_676E)
        let field = SIMD3(fieldHorizontal, 0, fieldHorizontal * tan(Angle.radians(fieldDip)))
        let phases = (0..<8).map { _ in random.uniform() * 2 * .pi }
        let w = 2 * Double.pi / rollPeriod
        let dt = 1 / rate
        let g = AttitudeFilter.gravity
        func attitude(_ t: Double) -> (heel: Double, pitch: Double, yaw: Double) {
            let heel =
                meanHeel + rollAmplitude * sin(w * t + phases[0]) + 0.25 * rollAmplitude * sin(2.7 * w * t + phases[1])
            let pitch =
                pitchAmplitude * sin(1.4 * w * t + phases[2]) + 0.3 * pitchAmplitude * sin(3.1 * w * t + phases[3])
            let yaw = 4 * sin(0.3 * w * t + phases[4])
            return (heel, pitch, yaw)
        }
        let steps = Int(duration * rate)
        for step in 0..<steps {
            let t = Double(step) * dt
            let now = attitude(t)
            let before = attitude(t - dt)
            let after = attitude(t + dt)
            let phi = Angle.radians(now.heel)
            let theta = Angle.radians(now.pitch)
            let phiDot = Angle.radians(after.heel - before.heel) / (2 * dt)
            let thetaDot = Angle.radians(after.pitch - before.pitch) / (2 * dt)
            let psiDot = Angle.radians(after.yaw - before.yaw) / (2 * dt)
            // Euler rates to body rates (ZYX).
            let p = phiDot - psiDot * sin(theta)
            let q = thetaDot * cos(phi) + psiDot * cos(theta) * sin(phi)
            let r = -thetaDot * sin(phi) + psiDot * cos(theta) * cos(phi)
            // Wave accelerations in the earth frame (north, east, down), then into the body frame.
            let earth = SIMD3<Double>(
                accelerationAmplitude * 0.6 * sin(1.4 * w * t + phases[5]),
                accelerationAmplitude * 0.8 * sin(w * t + phases[6]),
                -accelerationAmplitude * sin(w * t + phases[7]))
            let specificEarth = earth - SIMD3(0, 0, g)
            let inBody = Self.earthToBody(specificEarth, roll: phi, pitch: theta, yaw: Angle.radians(now.yaw))
            let noise = SIMD3(
                random.normal(accelerometerNoise), random.normal(accelerometerNoise),
                random.normal(accelerometerNoise))
            let gyro =
                SIMD3(p, q, r) * (180 / .pi) + gyroBias
                + SIMD3(random.normal(gyroNoise), random.normal(gyroNoise), random.normal(gyroNoise))
            let measured = inBody + noise
            let yaw = Angle.radians(heading + now.yaw)
            let magnetometer =
                Self.earthToBody(field, roll: phi, pitch: theta, yaw: yaw)
                + SIMD3(
                    magneticRandom.normal(magnetometerNoise), magneticRandom.normal(magnetometerNoise),
                    magneticRandom.normal(magnetometerNoise))
            body(
                Sample(
                    imu: IMUSample(
                        time: t, accelerometer: (measured.x, measured.y, measured.z),
                        gyroscope: (gyro.x, gyro.y, gyro.z)),
                    heel: now.heel, pitch: now.pitch, heading: Angle.direction(heading + now.yaw),
                    magnetometer: magnetometer))
        }
    }
}
