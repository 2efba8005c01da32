import Marine
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Specific force of a boat at rest with this heel and pitch (FRD), written out from the geometry.
func specificForceAtRest(heel: Double, pitch: Double) -> SIMD3<Double> {
    let g = AttitudeFilter.gravity
    let phi = heel * .pi / 180
    let theta = pitch * .pi / 180
    return SIMD3(g * sin(theta), -g * cos(theta) * sin(phi), -g * cos(theta) * cos(phi))
}

@Suite struct AttitudeFilterTests {
    let g = AttitudeFilter.gravity

    func atRest(heel: Double, pitch: Double) -> SIMD3<Double> { specificForceAtRest(heel: heel, pitch: pitch) }

    @Test(
        "at rest the filter settles on the heel and pitch gravity shows, with the signs of the conventions",
        arguments: [(10.0, 0.0), (-20.0, 3.0), (0.0, -5.0), (30.0, 8.0)])
    func staticTilt(heel: Double, pitch: Double) {
        var filter = AttitudeFilter()
        for _ in 0..<6000 {
            filter.update(gyroscope: SIMD3(0.4, -0.3, 0.2), accelerometer: atRest(heel: heel, pitch: pitch), dt: 0.01)
        }
        #expect(abs(filter.heel - heel) < 0.1)
        #expect(abs(filter.pitch - pitch) < 0.1)
        // The gyro's constant reading is bias: a minute more and heel and pitch have not drifted. (The bias about the
        // vertical cannot be seen without a heading reference, so the body rates keep its projection.)
        let settled = (filter.heel, filter.pitch)
        for _ in 0..<6000 {
            filter.update(gyroscope: SIMD3(0.4, -0.3, 0.2), accelerometer: atRest(heel: heel, pitch: pitch), dt: 0.01)
        }
        #expect(abs(filter.heel - settled.0) < 0.02 && abs(filter.pitch - settled.1) < 0.02)
    }

    @Test("rolling to starboard gives a positive roll rate and heel; turning to starboard a positive rate of turn")
    func signs() {
        var filter = AttitudeFilter()
        for _ in 0..<3000 { filter.update(gyroscope: .zero, accelerometer: atRest(heel: 0, pitch: 0), dt: 0.01) }
        for _ in 0..<100 {
            filter.update(gyroscope: SIMD3(10, 0, 0), accelerometer: atRest(heel: 0, pitch: 0), dt: 0.01)
        }
        #expect(filter.rollRate > 9 && filter.heel > 5)
        var turning = AttitudeFilter()
        for _ in 0..<300 {
            turning.update(gyroscope: SIMD3(0, 0, 6), accelerometer: atRest(heel: 0, pitch: 0), dt: 0.01)
        }
        #expect(abs(turning.rateOfTurn - 6) < 0.5)
    }

    @Test("accelerations far from 1 g (heave, slamming) are not trusted")
    func rejection() {
        var filter = AttitudeFilter()
        for _ in 0..<3000 { filter.update(gyroscope: .zero, accelerometer: atRest(heel: 0, pitch: 0), dt: 0.01) }
        // A second of 1.5 g pointing 45 degrees sideways: rejected, the estimate stays level.
        for _ in 0..<100 { filter.update(gyroscope: .zero, accelerometer: SIMD3(0, -10.4, -10.4), dt: 0.01) }
        #expect(abs(filter.heel) < 0.5)
    }
}

@Suite struct AxisMapTests {
    @Test("a chip mounted x forward, y to port, z up is remapped to the body frame")
    func remap() throws {
        let map = try #require(AxisMap("x, -y, -z"))
        #expect(map.apply(SIMD3(1, 2, 3)) == SIMD3(1, -2, -3))
        let sideways = try #require(AxisMap("-y,x,z"))
        #expect(sideways.apply(SIMD3(1, 2, 3)) == SIMD3(-2, 1, 3))
        #expect(sideways.description == "-y,x,z")
        #expect(AxisMap("x,x,z") == nil && AxisMap("x,y") == nil && AxisMap("x,y,w") == nil)
    }
}
