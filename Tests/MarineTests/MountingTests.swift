import Marine
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct MountingTests {
    let g = AttitudeFilter.gravity

    func specificForce(heel: Double, pitch: Double) -> SIMD3<Double> { specificForceAtRest(heel: heel, pitch: pitch) }

    @Test(
        "a tilted IMU measured on a level boat: its tilt is found, and taken off, the boat's heel and pitch remain",
        arguments: [(3.0, -2.0), (-7.5, 4.0), (0.0, 0.0), (15.0, 10.0)])
    func levelCalibration(heel: Double, pitch: Double) throws {
        let mounting = try #require(Mounting(levelAccelerometer: specificForce(heel: heel, pitch: pitch)))
        #expect(abs(mounting.heel - heel) < 1e-9 && abs(mounting.pitch - pitch) < 1e-9)
        // On the level boat, the corrected reading is level.
        let level = mounting.apply(specificForce(heel: heel, pitch: pitch))
        #expect(abs(level.x) < 1e-9 && abs(level.y) < 1e-9 && abs(level.z + g) < 1e-9)
        // Heeled 20° the boat (the IMU reads the boat's heel composed with its own tilt), the correction gives 20°
        // back when the mounting is a pure heel tilt (rotations about one axis add).
        let pureHeel = Mounting(heel: 4, pitch: 0)
        var filter = AttitudeFilter()
        for _ in 0..<3000 {
            filter.update(
                gyroscope: .zero, accelerometer: pureHeel.apply(specificForce(heel: 24, pitch: 0)), dt: 0.01)
        }
        #expect(abs(filter.heel - 20) < 0.05)
    }

    @Test("a mean far from 1 g is refused: the IMU was moving or is not scaled")
    func refused() {
        #expect(Mounting(levelAccelerometer: SIMD3(0, 0, -4.9)) == nil)
        #expect(Mounting(levelAccelerometer: .zero) == nil)
    }

    @Test("stillness: a moored boat's gyro noise is still, a boat rolling in a swell is not")
    func stillness() {
        var still = StillnessDetector(window: 2)
        var rolling = StillnessDetector(window: 2)
        for step in 0..<300 {
            let t = Double(step) * 0.01
            let noise = 0.1 * sin(Double(step) * 1.7)
            still.add(
                gyroscope: SIMD3(0.3 + noise, -0.2, 0.5 - noise), accelerometer: SIMD3(0, 0, -g),
                dt: step == 0 ? 0 : 0.01)
            rolling.add(
                gyroscope: SIMD3(5 * sin(2 * .pi * t / 4), 0, 0), accelerometer: SIMD3(0, 0, -g),
                dt: step == 0 ? 0 : 0.01)
        }
        #expect(still.isComplete && still.isStill)
        #expect(abs(still.meanGyroscope.x - 0.3) < 0.01 && abs(still.meanGyroscope.z - 0.5) < 0.01)
        #expect(rolling.isComplete && !rolling.isStill)
        var short = StillnessDetector(window: 2)
        short.add(gyroscope: .zero, accelerometer: SIMD3(0, 0, -g), dt: 0.01)
        #expect(!short.isStill)
        var bumped = StillnessDetector(window: 0.5)
        for step in 0..<60 {
            bumped.add(gyroscope: .zero, accelerometer: SIMD3(0, 0, step == 30 ? -g - 2 : -g), dt: 0.01)
        }
        #expect(!bumped.isStill)
    }

    /// The field of the earth (horizontal 20 µT, dip 60°) seen by a boat with this heading, heel and pitch.
    func field(heading: Double, heel: Double, pitch: Double) -> SIMD3<Double> {
        let earth = SIMD3(20.0, 0, 20 * tan(60 * Double.pi / 180))
        let (phi, theta, psi) = (heel * .pi / 180, pitch * .pi / 180, heading * .pi / 180)
        let z = SIMD3(cos(psi) * earth.x + sin(psi) * earth.y, -sin(psi) * earth.x + cos(psi) * earth.y, earth.z)
        let y = SIMD3(cos(theta) * z.x - sin(theta) * z.z, z.y, sin(theta) * z.x + cos(theta) * z.z)
        return SIMD3(y.x, cos(phi) * y.y + sin(phi) * y.z, -sin(phi) * y.y + cos(phi) * y.z)
    }

    @Test(
        "magnetometer heading, tilt-compensated: right when heeled; without compensation 20° of heel costs tens of degrees",
        arguments: [0.0, 35.0, 90.0, 200.0, 315.0])
    func magneticHeading(heading: Double) throws {
        let heel = 20.0
        let pitch = -5.0
        let measured = field(heading: heading, heel: heel, pitch: pitch)
        var filter = AttitudeFilter()
        for _ in 0..<3000 {
            filter.update(
                gyroscope: .zero, accelerometer: specificForce(heel: heel, pitch: pitch), dt: 0.01)
        }
        let compensated = try #require(MagneticHeading.heading(levelField: filter.levelled(measured)))
        #expect(abs(Angle.relative(compensated - heading)) < 0.1)
        let naive = try #require(MagneticHeading.heading(levelField: measured))
        if heading == 90 { #expect(abs(Angle.relative(naive - heading)) > 20) }
        #expect(MagneticHeading.heading(levelField: SIMD3(0.1, 0.1, 40)) == nil)
    }

    @Test("a bias set from a measurement is used at once, clamped to the filter's limit")
    func seededBias() {
        var filter = AttitudeFilter()
        filter.setGyroBias(SIMD3(0.2, -0.3, 0.5))
        #expect(abs(filter.gyroBias.z - 0.5) < 1e-12)
        filter.update(gyroscope: SIMD3(0.2, -0.3, 0.5), accelerometer: SIMD3(0, 0, -g), dt: 0.01)
        #expect(abs(filter.rateOfTurn) < 1e-6)
        filter.setGyroBias(SIMD3(50, 0, 0))
        #expect(filter.gyroBias.x == filter.settings.maximumBias)
    }
}
