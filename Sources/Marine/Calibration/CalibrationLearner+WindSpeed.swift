/// The apparent wind speed's factor (the masthead unit's cups, or its setting), from bear-aways and round-ups: the true
/// wind speed is the same just before and just after the boat turns from a beat to a run or back. A unit reading
/// high makes the true wind stronger on a beat than on a run (upwind the boat's speed is taken from the apparent
/// wind, downwind added to it), which is the difference H5000 owners correct by hand downwind. The factor that
/// brings the median of (true wind speed downwind minus upwind) to zero, by bisection: the difference falls as the
/// factor grows, because the apparent wind is stronger upwind than down.
extension CalibrationLearner {
    func windSpeedFactor(_ samples: [SailingSample], _ roundings: [Manoeuvre], _ calibration: SailingCalibration)
        -> LearntValue
    {
        guard roundings.count >= minimumCount else { return .none(1, count: roundings.count) }
        func with(_ k: Double) -> SailingCalibration {
            var c = calibration
            c.awsFactor = k
            return c
        }
        func differences(_ k: Double) -> [Double] {
            CalibrationReport.windSpeedDifferences(samples, roundings, with(k))
        }
        func bias(_ k: Double) -> Double { RobustStatistics.median(differences(k)) }
        guard let value = Bisection.root(0.5, 1.6, bias) else {
            return LearntValue(
                value: bias(0.5) > 0 ? 1.6 : 0.5, uncertainty: .infinity, count: roundings.count,
                status: .sensorFault(
                    "no wind speed factor from 0.5 to 1.6 makes the true wind speed hold from a beat to a run"))
        }
        let slope = abs(bias(value + 0.05) - bias(value - 0.05)) / 0.1
        let error = slope > 0.5 ? RobustStatistics.medianError(differences(value)) / slope : .infinity
        guard factorBounds.contains(value) else {
            return LearntValue(
                value: value, uncertainty: error, count: roundings.count,
                status: .sensorFault(
                    "the wind speed reads \(Int(((1 / value - 1) * 100).rounded())) % off: a broken or fouled "
                        + "masthead unit"))
        }
        return LearntValue(
            value: value, uncertainty: error, count: roundings.count,
            status: error <= sureWindSpeedFactor && roundings.count >= sureCount ? .sure : .unsure)
    }
}
