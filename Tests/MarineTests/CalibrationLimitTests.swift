import Marine
import Testing

/// A calibration applied only as far as it turns the true wind angle and the heading by 12° at most (#50).
@Suite struct CalibrationLimitTests {
    /// A log's factor of 1.25 and an offset of -5° in a drift (AWA 30° at 4 kn, the log 3.5 kn, the true wind abeam):
    /// the whole turns the true wind angle by some 23°.
    let whole = SailingCalibration(awaOffset: -5, speedFactor: 1.25)
    let knot = 1852.0 / 3600

    @Test("no share at all is the instruments' own; all of it is the calibration itself")
    func ends() {
        var calibration = whole
        calibration.upwashByWind = UpwashByWind(windSpeeds: [6, 14], upwind: [-2, -6], downwind: [1, 3])
        calibration.deviation = DeviationCurve([1, 2, 0, 0, 0])
        #expect(calibration.scaled(0).isIdentity)
        #expect(calibration.scaled(1) == calibration)
        let half = calibration.scaled(0.5)
        #expect(half.awaOffset == -2.5 && half.speedFactor == 1.125 && half.upwashByWind.downwind == [0.5, 1.5])
        #expect(half.deviation.coefficients == [0.5, 1, 0, 0, 0])
    }

    @Test("a drift: the share keeps the turn at 12° (within the bisection's 1/1024), more would not")
    func drift() {
        let awa = 30.0
        let aws = 4 * knot
        let stw = 3.5 * knot
        #expect(whole.turn(awa: awa, aws: aws, stw: stw) > 20)
        let share = whole.share(awa: awa, aws: aws, stw: stw, heading: nil)
        #expect(share > 0.2 && share < 0.6, "\(share)")
        let turn = whole.scaled(share).turn(awa: awa, aws: aws, stw: stw)
        #expect(turn <= 12 && turn > 11.9, "\(turn)")
        #expect(whole.scaled(share + 1.0 / 512).turn(awa: awa, aws: aws, stw: stw) > 12)
    }

    @Test("close-hauled in a breeze the same calibration turns the angle little: all of it applies")
    func breeze() {
        let share = whole.share(awa: 30, aws: 15 * knot, stw: 6 * knot, heading: 90)
        #expect(share == 1)
        #expect(whole.turn(awa: 30, aws: 15 * knot, stw: 6 * knot) < 12)
    }

    @Test("a compass card of 20° at east is applied 12/20 of the way there, whole where it is smaller")
    func card() {
        let card = SailingCalibration(deviation: DeviationCurve([0, 20, 0, 0, 0]))
        #expect(abs(card.share(awa: nil, aws: nil, stw: nil, heading: 90) - 0.6) < 1e-9)
        #expect(card.share(awa: nil, aws: nil, stw: nil, heading: 10) == 1)
    }

    @Test("the identity, field by field (the engine asks every tick): any one value changed is not the identity")
    func identity() {
        #expect(SailingCalibration().isIdentity && SailingCalibration.identity.isIdentity)
        var changed: [SailingCalibration] = [
            SailingCalibration(awaOffset: 1), SailingCalibration(upwashUpwind: 1),
            SailingCalibration(upwashDownwind: 1),
            SailingCalibration(upwashReach: 1), SailingCalibration(speedFactor: 1.1),
            SailingCalibration(deviation: DeviationCurve([0, 0, 0, 0, 1])), SailingCalibration(leewayCoefficient: 9),
            SailingCalibration(awsFactor: 0.9), SailingCalibration(speedSide: 0.01),
        ]
        var table = SailingCalibration()
        table.upwashByWind = UpwashByWind(windSpeeds: [8], upwind: [0], downwind: [0])
        var stepped = SailingCalibration()
        stepped.logSteps = [
            LogStep(time: 1, ratio: 1.2, factorBefore: 1.2, factorAfter: 1, countBefore: 8, countAfter: 8)
        ]
        changed += [table, stepped]
        for calibration in changed {
            #expect(!calibration.isIdentity && calibration != SailingCalibration(), "\(calibration)")
        }
    }

    @Test("the card term by term is the five terms' sum")
    func cardTerms() {
        let curve = DeviationCurve([0.5, 2, -1, 0.3, 0.2])
        for heading in stride(from: 0.0, to: 360, by: 15) {
            let summed = zip(curve.coefficients, DeviationCurve.terms(heading)).reduce(0) { $0 + $1.0 * $1.1 }
            #expect(abs(curve.deviation(heading) - summed) < 1e-12)
        }
    }

    @Test("a second of sailing: the log's step folded in at its time, then bounded")
    func sample() {
        var calibration = SailingCalibration()
        calibration.logSteps = [
            LogStep(time: 100, ratio: 1.3, factorBefore: 1.3, factorAfter: 1, countBefore: 9, countAfter: 9)
        ]
        let before = SailingSample(time: 50, awa: 30, aws: 4, stw: 3.5, heading: 0, cog: nil, sog: nil)
        let after = SailingSample(time: 150, awa: 30, aws: 4, stw: 3.5, heading: 0, cog: nil, sog: nil)
        let early = calibration.bounded(for: before)
        #expect(early.logSteps.isEmpty && early.speedFactor > 1 && early.speedFactor < 1.3, "\(early.speedFactor)")
        #expect(calibration.bounded(for: after).isIdentity)
        let raw = SailingCalibration().trueWind(before).angle
        #expect(abs(early.trueWind(before).angle - raw) <= 12)
        #expect(abs(calibration.trueWind(before).angle - raw) > 12)
    }
}
