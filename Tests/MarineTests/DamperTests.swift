import Marine
import Testing

@Suite struct DamperTests {
    @Test("a step settles to 63% after one time constant, whatever the sample rate")
    func timeConstant() {
        for rate in [1.0, 10, 50] {
            var damper = ScalarDamper(timeConstant: 2)
            damper.update(0, at: 0)
            var time = 0.0
            var value = 0.0
            while time < 2 - 1e-9 {
                time += 1 / rate
                value = damper.update(10, at: time)
            }
            #expect(abs(value - 10 * (1 - exp(-1))) < 1e-6)
        }
    }

    @Test("a time constant of 0 switches damping off")
    func off() {
        var damper = ScalarDamper(timeConstant: 0)
        damper.update(1, at: 0)
        #expect(damper.update(7, at: 0.1) == 7)
    }

    @Test("an angle crossing 0/360 is damped without a jump through 180")
    func angleWrap() {
        var damper = AngleDamper(timeConstant: 1)
        damper.update(350, at: 0)
        var time = 0.0
        for _ in 0..<30 {
            time += 0.1
            let value = Angle.direction(damper.update(10, at: time))
            #expect(value >= 350 || value <= 10, "jumped to \(value)")
        }
        #expect(abs(Angle.relative(damper.value! - 10)) < 1)
    }

    @Test("wind damped as a vector: a shift through north does not slow the wind")
    func vectorWind() {
        var damper = VectorDamper(timeConstant: 0.5)
        damper.update(PlaneVector(magnitude: 10, angle: -5), at: 0)
        let value = damper.update(PlaneVector(magnitude: 10, angle: 5), at: 0.1)
        #expect(value.magnitude > 9.9)
    }

    @Test("angle helpers wrap into their ranges")
    func helpers() {
        #expect(Angle.direction(-10) == 350)
        #expect(Angle.direction(720) == 0)
        #expect(Angle.relative(190) == -170)
        #expect(Angle.relative(-180) == 180)
        #expect(Angle.difference(from: 350, to: 10) == 20)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
