import Marine
import Testing

@Suite struct CorrectionTests {
    @Test("REFERENCE example: heel 20°, AWA 30°, AWS 15 kn gives 31.57° and 15.25 kn")
    func heelReference() {
        let corrected = WindCorrections.heel(RelativeWind(angle: 30, speed: 15), heel: 20)
        #expect(abs(corrected.angle - 31.57) < 0.005)
        #expect(abs(corrected.speed - 15.25) < 0.005)
    }

    @Test("heel correction is symmetric in the sign of heel and of the angle, and does nothing head to wind")
    func heelSymmetry() {
        let port = WindCorrections.heel(RelativeWind(angle: -30, speed: 15), heel: -20)
        #expect(abs(port.angle + 31.57) < 0.005)
        let ahead = WindCorrections.heel(RelativeWind(angle: 0, speed: 15), heel: 25)
        #expect(abs(ahead.angle) < 1e-12 && abs(ahead.speed - 15) < 1e-12)
        let abeam = WindCorrections.heel(RelativeWind(angle: 90, speed: 15), heel: 20)
        #expect(abs(abeam.speed - 15 / 0.9396926) < 1e-6)
    }

    @Test("leeway: K·heel/STW², zero at low speed, clamped")
    func leeway() {
        let model = LeewayModel()
        let sixKnots = Units.metresPerSecond(knots: 6)
        #expect(abs(model.leeway(heel: 15, speedThroughWater: sixKnots) - 12 * 15 / 36) < 1e-9)
        #expect(model.leeway(heel: -15, speedThroughWater: sixKnots) < 0)
        #expect(model.leeway(heel: 15, speedThroughWater: Units.metresPerSecond(knots: 0.5)) == 0)
        #expect(model.leeway(heel: 40, speedThroughWater: Units.metresPerSecond(knots: 1.2)) == 20)
    }

    @Test("mast motion: rolling to starboard makes calm air seem to blow from starboard, and the correction removes it")
    func mastMotion() {
        let still = RelativeWind(angle: 0, speed: 0)
        // The masthead moves to starboard at h·p, so in calm air the unit reads wind from starboard at h·p;
        // correcting that reading gives calm.
        let mastHeight = 15.0
        let rollRate = 10.0
        let induced = mastHeight * Angle.radians(rollRate)
        let measured = RelativeWind(angle: 90, speed: induced)
        let corrected = WindCorrections.mastMotion(measured, rollRate: rollRate, pitchRate: 0, mastHeight: mastHeight)
        #expect(corrected.speed < 1e-12)
        // Pitching bow-up swings the masthead aft: the unit sees wind from astern, corrected away.
        let pitching = RelativeWind(angle: 180, speed: mastHeight * Angle.radians(4))
        #expect(WindCorrections.mastMotion(pitching, rollRate: 0, pitchRate: 4, mastHeight: mastHeight).speed < 1e-12)
        #expect(WindCorrections.mastMotion(still, rollRate: 0, pitchRate: 0, mastHeight: mastHeight).speed == 0)
    }

    @Test("a sensor offset turns the angle and wraps it")
    func offset() {
        #expect(WindCorrections.sensorOffset(RelativeWind(angle: 178, speed: 3), offset: 5).angle == -177)
    }
}
