/// The wind speed's factor when the bear-aways and round-ups are not sure of it, and the log's steps carried the wind
/// (``LogStep/windRatio``: an instrument's speed setting scales the log and the masthead unit's speed alike).
///
/// The readings before each step are scaled to the stretch since the last one, so a factor of 1 for the wind says it
/// reads right *now*, and wrong by the steps' ratios on every stretch before. Where the wind stepped with the log,
/// that is a guess the data does not make: at most one stretch reads the wind right, and the learner takes it to be
/// the one whose log read nearest right against the ground (its factor nearest 1: the instruments' setting nearest
/// the one they were set up with), the others read as the steps say. With no step in the wind, 1; and 1 when that
/// factor is beyond the wind speed's bounds (``factorBounds``: a masthead unit read that far off is broken, said by
/// the roundings when they can, never applied, and no file its reader refuses).
extension CalibrationLearner {
    /// The wind speed's factor on the latest stretch when it reads right on the stretch whose log's factor is nearest
    /// 1 (each stretch's as the dated calibration of its readings has it).
    func windFallback(_ calibration: SailingCalibration) -> Double {
        // Each stretch's log and wind as ``SailingCalibration/at(_:)`` reads a reading of it (a second before each
        // step, the latest first), the wind's factor left at 1 so that it is the steps' alone.
        var steps = calibration
        steps.awsFactor = 1
        let stretches = [Double.infinity] + calibration.logSteps.reversed().map { $0.time - 1 }
        let nearest = stretches.map { steps.at($0) }.min { abs($0.speedFactor - 1) < abs($1.speedFactor - 1) }
        let factor = 1 / (nearest?.awsFactor ?? 1)
        return factorBounds.contains(factor) ? factor : 1
    }

    /// The wind speed's factor applied: the learnt one when sure, 1 when the roundings say the masthead unit is
    /// broken (nothing is read from it), else ``windFallback(_:)``'s.
    func appliedWindSpeed(_ learnt: LearntValue, _ calibration: SailingCalibration) -> Double {
        if case .sensorFault = learnt.status { return 1 }
        return learnt.isSure ? learnt.value : windFallback(calibration)
    }

    /// The report's wind speed's factor once learnt: when not sure and the steps carried the wind, the fallback,
    /// applied as provisional (what 1 would say, that the wind reads right since the last step, the steps deny).
    func withWindFallback(_ learnt: LearntValue, _ calibration: SailingCalibration) -> LearntValue {
        if case .sensorFault = learnt.status { return learnt }
        let fallback = windFallback(calibration)
        guard !learnt.isSure, abs(fallback - 1) > 1e-9 else { return learnt }
        let said =
            learnt.count > 0 && learnt.uncertainty.isFinite
            ? "the roundings say \(FixedDecimal.text(learnt.value, decimals: 3)) ± "
                + "\(FixedDecimal.text(learnt.uncertainty, decimals: 3)), not sure; " : "not enough roundings; "
        return LearntValue(
            value: fallback, uncertainty: learnt.uncertainty, count: learnt.count,
            status: .provisional(
                said + "the wind speed stepped with the log: taken to read right where the log read nearest right"))
    }
}
