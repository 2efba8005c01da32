/// The log's factor by the side the boat heels to (``SailingCalibration/speedSide``): a paddle wheel off the
/// centreline sits deeper on one tack than on the other and reads more there.
///
/// The same invariant as the factor's: the current does not change across a manoeuvre. With the water velocity `W`
/// under the common factor and `p` the side each window heels to (``SailingCalibration/heelSide(_:)``: +1 on port
/// tack, −1 on starboard, none running), the current `G − (1 + s p) W` is the same before and after, so
/// `ΔG − ΔW = s (p₁ W₁ − p₀ W₀)`; each manoeuvre gives `s` by projection on `v = p₁ W₁ − p₀ W₀` (a tack's `v` points
/// into the wind: the two tacks' water velocities added), the median is the value. Only manoeuvres between windows
/// clearly heeled (a side of 0.9 or more) or upright (0.1 or less): tacks, and bear-aways and round-ups between a
/// beat or a close reach and a run.
extension CalibrationLearner {
    /// Bound beyond which the two sides' difference is a broken or fouled log (20 % between the tacks).
    static let sideBound = 0.1
    /// Sure within a standard error of half a per cent of either side.
    static let sureSide = 0.005

    /// The log's factor and its side term, by turns (each on top of the other) until neither moves by 0.001 (four
    /// rounds at most); a side term applied only when sure, the factor then learnt again on top of it.
    func learnLog(
        _ samples: [SailingSample], _ manoeuvres: [Manoeuvre], _ report: inout CalibrationReport,
        _ calibration: inout SailingCalibration
    ) {
        for _ in 0..<4 {
            report.speedFactor = speedFactor(samples, manoeuvres, calibration)
            let factor = report.speedFactor.isApplied ? report.speedFactor.value : 1
            var withFactor = calibration
            withFactor.speedFactor = factor
            report.speedSide = speedSide(samples, manoeuvres, withFactor)
            let side = report.speedSide.isSure ? report.speedSide.value : 0
            let moved = abs(factor - calibration.speedFactor) >= 0.001 || abs(side - calibration.speedSide) >= 0.001
            calibration.speedFactor = factor
            calibration.speedSide = side
            if !moved { return }
        }
    }

    /// The log's side term on top of `calibration` (its factor, card and leeway; its own side term left out).
    func speedSide(_ samples: [SailingSample], _ manoeuvres: [Manoeuvre], _ calibration: SailingCalibration)
        -> LearntValue
    {
        var base = calibration
        base.speedSide = 0
        var each: [Double] = []
        for change in WaterChange.all(samples, manoeuvres, base) {
            let p0 = SailingCalibration.heelSide(change.apparent0)
            let p1 = SailingCalibration.heelSide(change.apparent1)
            // Only between windows clearly heeled or clearly upright: how much of the side a broad reach's log shows
            // is not known.
            guard [p0, p1].allSatisfy({ abs($0) <= 0.1 || abs($0) >= 0.9 }) else { continue }
            // At least 2 kn of water velocity the side turns, as the factor's.
            if let side = change.side(p0, p1) { each.append(side) }
        }
        guard each.count >= minimumCount else { return .none(0, count: each.count) }
        let value = RobustStatistics.median(each)
        let error = RobustStatistics.medianError(each)
        guard abs(value) <= Self.sideBound else {
            let percent = Int((200 * abs(value)).rounded())
            return LearntValue(
                value: value, uncertainty: error, count: each.count,
                status: .sensorFault(
                    "the log reads \(percent) % more on \(value < 0 ? "port" : "starboard") tack than on the other: "
                        + "a paddle wheel fouled or off its mount"))
        }
        return LearntValue(
            value: value, uncertainty: error, count: each.count,
            status: error <= Self.sureSide && each.count >= sureCount ? .sure : .unsure)
    }
}
