import Marine
import Testing

/// The upwash by wind speed: an afternoon in 7 kn whose masthead unit reads 6° wide, one in 18 kn reading 2° wide.
@Suite struct UpwashByWindTests {
    static func twoAfternoons() -> [SailingSample] {
        SyntheticAfternoon(upwash: 6, windSpeed: 7).samples()
            + SyntheticAfternoon(upwash: 2, windSpeed: 18, start: 1_700_100_000).samples()
    }

    @Test func eachBandLearnsItsOwnUpwash() {
        let report = CalibrationLearner().learn(Self.twoAfternoons())
        let light = report.upwashBands.first { $0.upper <= 9 }
        let strong = report.upwashBands.first { $0.lower >= 15 }
        #expect(light.map { abs($0.upwind.value + 6) < 1 && $0.upwind.isSure } == true, "\(String(describing: light))")
        #expect(
            strong.map { abs($0.upwind.value + 2) < 1 && $0.upwind.isSure } == true, "\(String(describing: strong))")
        let table = report.calibration.upwashByWind
        #expect(table.windSpeeds.count == 2, "\(table)")
        // Applied, the tacks of each afternoon hold their direction: no bias left in either.
        let samples = Self.twoAfternoons()
        let tacks = report.manoeuvres.filter { $0.kind == .tack }
        let lightTacks = tacks.filter { $0.time < 1_700_100_000 }
        let strongTacks = tacks.filter { $0.time >= 1_700_100_000 }
        let single = SailingCalibration(upwashUpwind: report.upwashUpwind.value)
        for set in [lightTacks, strongTacks] {
            let byWind = CalibrationReport.bias(samples, set, report.calibration).bias
            let alone = CalibrationReport.bias(samples, set, single).bias
            #expect(abs(byWind) < 1 && abs(byWind) < abs(alone), "by wind \(byWind)°, one value \(alone)°")
        }
    }

    @Test func oneWindSpeedLearnsNoTable() {
        let report = CalibrationLearner().learn(SyntheticAfternoon(upwash: 4).samples())
        #expect(report.calibration.upwashByWind.isEmpty)
        #expect(report.upwashBands.count == 1)
    }

    @Test func theTableIsLinearBetweenItsWindSpeedsAndFlatBeyond() {
        let table = UpwashByWind(windSpeeds: [6, 12, 18], upwind: [-6, -4, -2], downwind: [1, 1, 3])
        #expect(table.upwind(at: 3) == -6 && table.upwind(at: 9) == -5 && table.upwind(at: 25) == -2)
        #expect(table.downwind(at: 15) == 2)
        let calibration = SailingCalibration(upwashUpwind: -1)
        var withTable = calibration
        withTable.upwashByWind = table
        // Close-hauled (30° apparent) the whole upwash applies: the table's at 9 kn, the single value without one.
        #expect(withTable.apparentAngle(30, windSpeed: 9) == 25 && withTable.apparentAngle(-30, windSpeed: 9) == -25)
        #expect(withTable.apparentAngle(30) == 29 && calibration.apparentAngle(30, windSpeed: 9) == 29)
    }

    @Test func aTableComposesWithTheOneBefore() {
        var applied = SailingCalibration()
        applied.upwashByWind = UpwashByWind(windSpeeds: [6, 18], upwind: [-6, -2], downwind: [0, 0])
        let scalar = applied.then(SailingCalibration(upwashUpwind: 1))
        #expect(scalar.upwashByWind.upwind == [-5, -1])
        var residual = SailingCalibration()
        residual.upwashByWind = UpwashByWind(windSpeeds: [12], upwind: [0.5], downwind: [0])
        #expect(applied.then(residual).upwashByWind.upwind == [-3.5])
    }

    /// Two afternoons of broad reaches (115° true) gybed between: 10 kn with the masthead unit reading 6° wide on the
    /// reach, 20 kn reading 2° wide.
    static func twoReachingAfternoons() -> [SailingSample] {
        SyntheticAfternoon(windSpeed: 10, runningAngle: 115, reachError: 6).samples()
            + SyntheticAfternoon(windSpeed: 20, runningAngle: 115, reachError: 2, start: 1_700_100_000).samples()
    }

    @Test func eachBandLearnsItsOwnReach() {
        let samples = Self.twoReachingAfternoons()
        let report = CalibrationLearner().learn(samples)
        let light = report.upwashBands.first { $0.lower == 9 }
        let strong = report.upwashBands.first { $0.lower >= 15 }
        #expect(light.map { abs($0.reach.value + 6) < 1 && $0.reach.isSure } == true, "\(String(describing: light))")
        #expect(strong.map { abs($0.reach.value + 2) < 1 && $0.reach.isSure } == true, "\(String(describing: strong))")
        let table = report.calibration.upwashByWind
        #expect(table.windSpeeds.count == 2 && table.reach.count == 2, "\(table)")
        // Applied, the gybes of each afternoon hold their direction; one reaching value leaves a bias in both.
        let gybes = report.manoeuvres.filter { $0.kind == .gybe }
        var single = report.calibration
        single.upwashByWind.reach = []
        for set in [gybes.filter { $0.time < 1_700_100_000 }, gybes.filter { $0.time >= 1_700_100_000 }] {
            let byWind = CalibrationReport.bias(samples, set, report.calibration).bias
            let alone = CalibrationReport.bias(samples, set, single).bias
            #expect(set.count >= 20 && abs(byWind) < 1 && abs(alone) > 1, "by wind \(byWind)°, one value \(alone)°")
        }
    }

    @Test func theReachingRowIsLinearAndComposes() {
        var calibration = SailingCalibration(upwashReach: -1)
        calibration.upwashByWind = UpwashByWind(
            windSpeeds: [6, 18], upwind: [0, 0], downwind: [0, 0], reach: [-6, -2])
        // Abeam (95° apparent) the whole reaching upwash applies: the row's at 12 kn, the single value without a speed.
        #expect(
            calibration.apparentAngle(95, windSpeed: 12) == 91 && calibration.apparentAngle(-95, windSpeed: 3) == -89)
        #expect(calibration.apparentAngle(95) == 94)
        #expect(calibration.then(SailingCalibration(upwashReach: 1)).upwashByWind.reach == [-5, -1])
        var residual = SailingCalibration()
        residual.upwashByWind = UpwashByWind(windSpeeds: [12], upwind: [0], downwind: [0], reach: [0.5])
        #expect(calibration.then(residual).upwashByWind.reach == [-3.5])
        // A residual with no reaching row on a calibration with none: none.
        var plain = SailingCalibration()
        plain.upwashByWind = UpwashByWind(windSpeeds: [6, 18], upwind: [-6, -2], downwind: [0, 0])
        #expect(plain.then(SailingCalibration(upwashReach: 2)).upwashByWind.reach.isEmpty)
    }
}
