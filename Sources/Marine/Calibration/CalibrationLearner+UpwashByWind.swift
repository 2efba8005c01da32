/// One band of true wind speed's upwash, learnt from the manoeuvres sailed in it (``CalibrationLearner``).
public struct UpwashBand: Hashable, Sendable {
    /// The band (knots of true wind, from `lower` up to `upper`) and the median wind speed of its manoeuvres, where its
    /// values stand in the table.
    public var lower: Double
    public var upper: Double
    public var windSpeed: Double
    public var upwind: LearntValue
    public var downwind: LearntValue
    /// From the band's manoeuvres with a reach on a side (``upwash(_:_:_:_:)`` at ``PointOfSail/reach``).
    public var reach = LearntValue.none(0, count: 0)
}

/// The upwash by wind speed: the tacks and gybes split by the true wind speed of their windows (under 9 kn, 9 to 15,
/// 15 and over), each band learnt as the whole is (``upwash(_:_:_:_:)``), upwind, downwind and reaching. Applied as a
/// table (``UpwashByWind``) when two bands or more are sure at a point of sail, each value at its band's median wind
/// speed; a band not sure there takes the whole's value, and a point of sail sure in fewer than two bands keeps its
/// single value (the reach: no reaching row).
extension CalibrationLearner {
    static let upwashBands: [(Double, Double)] = [(0, 9), (9, 15), (15, 100)]

    /// The bands and their table, then the wind speed's factor on top of them, by turns until the factor moves by less
    /// than a thousandth (four rounds at most): a reach read wider in one wind than in another turns the true wind
    /// speed across the bear-aways of each by its own amount, which a single reaching value leaves to the factor.
    func learnByWind(
        _ samples: [SailingSample], tacks: [Manoeuvre], gybes: [Manoeuvre], _ report: inout CalibrationReport,
        _ calibration: inout SailingCalibration
    ) {
        for _ in 0..<4 {
            // Each band learnt on the single values (a table would hide what a band's upwash changes).
            var single = calibration
            single.upwashByWind = UpwashByWind()
            report.upwashBands = upwashBands(samples, tacks: tacks, gybes: gybes, single)
            calibration.upwashByWind = upwashTable(report.upwashBands, single)
            var refined = calibration
            refined.awsFactor = 1
            let before = calibration.awsFactor
            report.awsFactor = windSpeedFactor(samples, report.roundings, refined)
            calibration.awsFactor = appliedWindSpeed(report.awsFactor, calibration)
            if abs(calibration.awsFactor - before) < 0.001 { return }
        }
    }

    func upwashBands(
        _ samples: [SailingSample], tacks: [Manoeuvre], gybes: [Manoeuvre], _ calibration: SailingCalibration
    ) -> [UpwashBand] {
        func windSpeed(_ m: Manoeuvre) -> Double {
            (WindowMeans(samples, m.before, calibration).trueSpeed
                + WindowMeans(samples, m.after, calibration)
                .trueSpeed) / 2
        }
        var bands: [UpwashBand] = []
        for (lower, upper) in Self.upwashBands {
            let inBand = { (m: Manoeuvre) -> Bool in
                let w = windSpeed(m)
                return w >= lower && w < upper
            }
            let bandTacks = tacks.filter(inBand)
            let bandGybes = gybes.filter(inBand)
            guard !bandTacks.isEmpty || !bandGybes.isEmpty else { continue }
            var band = UpwashBand(
                lower: lower, upper: upper,
                windSpeed: RobustStatistics.median((bandTacks + bandGybes).map(windSpeed)),
                upwind: upwash(samples, bandTacks, calibration, upwind: true),
                downwind: upwash(samples, bandGybes, calibration, upwind: false))
            band.reach = upwash(samples, bandTacks + bandGybes, calibration, .reach)
            bands.append(band)
        }
        return bands
    }

    /// The table the bands make, on top of the whole's values; empty unless two bands are sure at a point of sail.
    func upwashTable(_ bands: [UpwashBand], _ calibration: SailingCalibration) -> UpwashByWind {
        func row(_ learnt: (UpwashBand) -> LearntValue, _ whole: Double) -> [Double]? {
            guard bands.filter({ learnt($0).isSure }).count >= 2 else { return nil }
            return bands.map { learnt($0).isSure ? learnt($0).value : whole }
        }
        let up = row({ $0.upwind }, calibration.upwashUpwind)
        let down = row({ $0.downwind }, calibration.upwashDownwind)
        let reach = row({ $0.reach }, calibration.upwashReach)
        guard up != nil || down != nil || reach != nil else { return UpwashByWind() }
        return UpwashByWind(
            windSpeeds: bands.map { $0.windSpeed },
            upwind: up ?? bands.map { _ in calibration.upwashUpwind },
            downwind: down ?? bands.map { _ in calibration.upwashDownwind }, reach: reach ?? [])
    }
}
