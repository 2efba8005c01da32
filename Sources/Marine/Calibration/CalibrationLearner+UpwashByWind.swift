/// One band of true wind speed's upwash, learnt from the manoeuvres sailed in it (``CalibrationLearner``).
public struct UpwashBand: Hashable, Sendable {
    /// The band (knots of true wind, from `lower` up to `upper`) and the median wind speed of its manoeuvres, where its
    /// values stand in the table.
    public var lower: Double
    public var upper: Double
    public var windSpeed: Double
    public var upwind: LearntValue
    public var downwind: LearntValue
}

/// The upwash by wind speed: the tacks and gybes split by the true wind speed of their windows (under 9 kn, 9 to 15,
/// 15 and over), each band learnt as the whole is (``upwash(_:_:_:upwind:)``). Applied as a table
/// (``UpwashByWind``) when two bands or more are sure upwind or downwind, each value at its band's median wind speed;
/// a band not sure there takes the whole's value.
extension CalibrationLearner {
    static let upwashBands: [(Double, Double)] = [(0, 9), (9, 15), (15, 100)]

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
            bands.append(
                UpwashBand(
                    lower: lower, upper: upper,
                    windSpeed: RobustStatistics.median((bandTacks + bandGybes).map(windSpeed)),
                    upwind: upwash(samples, bandTacks, calibration, upwind: true),
                    downwind: upwash(samples, bandGybes, calibration, upwind: false)))
        }
        return bands
    }

    /// The table the bands make, on top of the whole's values; empty unless two bands are sure one way.
    func upwashTable(_ bands: [UpwashBand], _ calibration: SailingCalibration) -> UpwashByWind {
        let sureUp = bands.filter { $0.upwind.isSure }.count
        let sureDown = bands.filter { $0.downwind.isSure }.count
        guard sureUp >= 2 || sureDown >= 2 else { return UpwashByWind() }
        return UpwashByWind(
            windSpeeds: bands.map { $0.windSpeed },
            upwind: bands.map { sureUp >= 2 && $0.upwind.isSure ? $0.upwind.value : calibration.upwashUpwind },
            downwind: bands.map {
                sureDown >= 2 && $0.downwind.isSure ? $0.downwind.value : calibration.upwashDownwind
            })
    }
}
