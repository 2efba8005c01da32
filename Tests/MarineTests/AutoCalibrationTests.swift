import Marine
import Testing

/// The gateway calibrating itself: when it learns, and which learnt values it applies.
@Suite struct AutoCalibrationTests {
    @Test func learnsTenMinutesAfterTheStartThenEverySixHours() {
        let auto = AutoCalibration()
        #expect(auto.due(started: 100, lastLearnt: nil) == 700)
        #expect(auto.due(started: 100, lastLearnt: 700) == 700 + 6 * 3600)
        #expect(AutoCalibration(every: 60).due(started: 100, lastLearnt: nil) == 160, "never later than one period")
    }

    @Test func theSameCalibrationChangesNothing() {
        let applied = SailingCalibration(
            awaOffset: -4.5, speedFactor: 1.05, deviation: DeviationCurve([0, 2, 0, 0, 1]), leewayCoefficient: 9)
        #expect(AutoCalibration().changes(from: applied, to: applied).isEmpty)
    }

    @Test func smallChangesAreNotWorthARestartOfAnything() {
        let applied = SailingCalibration(awaOffset: -4.5, speedFactor: 1.05, leewayCoefficient: 9)
        let learnt = SailingCalibration(
            awaOffset: -4.2, speedFactor: 1.053, deviation: DeviationCurve([0.3, 0, 0, 0, 0]), leewayCoefficient: 9.5,
            awsFactor: 1.004)
        #expect(AutoCalibration().changes(from: applied, to: learnt).isEmpty)
    }

    @Test func eachValueThatMovesIsSaid() {
        let applied = SailingCalibration(awaOffset: -4.5, speedFactor: 1.05)
        let learnt = SailingCalibration(
            awaOffset: -3.8, upwashUpwind: 1.2, upwashReach: -2, speedFactor: 1.07,
            deviation: DeviationCurve([0, 2, 0, 0, 0]),
            leewayCoefficient: 10, awsFactor: 0.95, speedSide: -0.02)
        let said = AutoCalibration().changes(from: applied, to: learnt)
        #expect(
            said == [
                "awa_offset -4.50° → -3.80°", "upwash_upwind 0.00° → 1.20°", "upwash_reach 0.00° → -2.00°",
                "speed_factor 1.0500 → 1.0700", "speed_side 0.0000 → -0.0200",
                "aws_factor 1.0000 → 0.9500", "deviation changed by up to 2.0°", "leeway_coefficient 10.0",
            ], "\(said)")
    }

    @Test func aLeewayCoefficientMovingATenthIsSaid() {
        let applied = SailingCalibration(leewayCoefficient: 10)
        #expect(AutoCalibration().changes(from: applied, to: SailingCalibration(leewayCoefficient: 11.5)).count == 1)
        #expect(AutoCalibration().changes(from: applied, to: SailingCalibration(leewayCoefficient: 10.5)).isEmpty)
    }

    @Test func aReachingRowThatMovesIsSaid() {
        var applied = SailingCalibration()
        applied.upwashByWind = UpwashByWind(windSpeeds: [10, 20], upwind: [0, 0], downwind: [0, 0], reach: [-6, -2])
        var learnt = applied
        learnt.upwashByWind.reach = [-6, -0.5]
        #expect(AutoCalibration().changes(from: applied, to: learnt) == ["upwash by wind speed changed by up to 1.5°"])
        learnt.upwashByWind.reach = [-6, -1.9]
        #expect(AutoCalibration().changes(from: applied, to: learnt).isEmpty)
    }
}
