import Marine
import Testing

@Suite struct PointOfSailTests {
    /// The side she heels to, for the log by side: +1 on port tack (the wind from port), −1 on starboard, fading in
    /// from head to wind and out on a run.
    @Test func theHeelSideFollowsTheTackAndFadesRunning() {
        let expected: [(Double, Double)] = [
            (-30, 1), (30, -1), (-90, 1), (5, -0.5), (-12, 1), (0, 0), (-120, 0.5), (150, 0), (-180, 0),
        ]
        for (awa, side) in expected {
            #expect(abs(SailingCalibration.heelSide(awa) - side) < 1e-12, "\(awa)°")
        }
        let log = SailingCalibration(speedFactor: 1.1, speedSide: -0.04)
        #expect(abs(log.speed(6, awa: -35) - 6 * 1.1 * 0.96) < 1e-12)
        #expect(abs(log.speed(6, awa: 35) - 6 * 1.1 * 1.04) < 1e-12)
        #expect(abs(log.speed(6, awa: nil) - 6 * 1.1) < 1e-12)
    }

    @Test func theSharesAddToOneAndFadeIntoEachOther() {
        for size in stride(from: 0.0, through: 180, by: 2.5) {
            let s = PointOfSail.shares(size)
            #expect(abs(s.upwind + s.reach + s.downwind - 1) < 1e-12, "\(size)°")
            #expect([s.upwind, s.reach, s.downwind].allSatisfy { $0 >= 0 && $0 <= 1 }, "\(size)°")
        }
        #expect(PointOfSail.shares(30) == (1, 0, 0))
        #expect(PointOfSail.shares(95) == (0, 1, 0))
        #expect(PointOfSail.shares(160) == (0, 0, 1))
        #expect(abs(PointOfSail.reach.share(65) - 0.5) < 1e-12 && abs(PointOfSail.reach.share(120) - 0.5) < 1e-12)
    }

    @Test func theReachsUpwashTurnsOnlyAReach() {
        let calibration = SailingCalibration(upwashReach: -3)
        #expect(abs(calibration.apparentAngle(95) - 92) < 1e-9)
        #expect(abs(calibration.apparentAngle(-95) + 92) < 1e-9)
        #expect(calibration.apparentAngle(30) == 30 && calibration.apparentAngle(-160) == -160)
        #expect(abs(calibration.apparentAngle(65) - 63.5) < 1e-9)
        // Composed as the others are: the residual adds.
        #expect(calibration.then(SailingCalibration(upwashReach: 1)).upwashReach == -2)
        #expect(calibration.with(upwash: 2, .reach).upwashReach == 2)
    }

    @Test func broadReachesTeachTheReachsUpwash() {
        // The runs are broad reaches (115° true, about 80° apparent): every gybe is all reach either side.
        let afternoon = SyntheticAfternoon(runningAngle: 115, reachError: 4)
        let samples = afternoon.samples()
        let report = CalibrationLearner().learn(samples)
        let gybes = report.manoeuvres.filter { $0.kind == .gybe }
        #expect(gybes.count >= 20)
        #expect(abs(report.upwashReach.value + 4) < 1 && report.upwashReach.isSure, "\(report.upwashReach)")
        #expect(abs(report.upwashUpwind.value) < 1, "\(report.upwashUpwind)")
        // A gybe between two reaches says nothing of the downwind upwash: not enough data, never a sensor fault.
        #expect(report.upwashDownwind.status == .notEnoughData, "\(report.upwashDownwind)")
        let raw = CalibrationReport.bias(samples, gybes, SailingCalibration()).bias
        let calibrated = CalibrationReport.bias(samples, gybes, report.calibration).bias
        #expect(abs(raw) > 4 && abs(calibrated) < 1, "gybes \(raw)° → \(calibrated)°")
        // With true instruments on the same afternoon, nothing to correct.
        let clean = CalibrationLearner().learn(SyntheticAfternoon(runningAngle: 115).samples())
        #expect(abs(clean.upwashReach.value) < 1, "\(clean.upwashReach)")
    }

    @Test func deadRunsTeachNothingOfTheReach() {
        // Gybes at 165° true (about 150° apparent): all downwind.
        let report = CalibrationLearner().learn(SyntheticAfternoon(runningAngle: 165, reachError: 4).samples())
        #expect(
            report.upwashReach.status == .notEnoughData && report.calibration.upwashReach == 0, "\(report.upwashReach)")
    }
}
