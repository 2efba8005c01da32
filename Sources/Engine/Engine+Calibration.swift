import Marine

/// The calibration learnt from sailing, changed while the engine runs: the crew's "apply" and "undo" on the panel, or
/// the gateway applying what it learnt by itself (`[calibration] auto`). From the next tick on the wind, the log and
/// the heading are corrected by it; nothing else the engine holds changes, and nothing restarts.
extension Engine {
    public mutating func setCalibration(_ calibration: SailingCalibration) {
        configuration.wind.calibration = calibration
    }

    /// The calibration the engine applies.
    public var calibration: SailingCalibration { configuration.wind.calibration }

    /// The polar targets and performance come from, changed while the engine runs (the crew choosing the boat's
    /// learnt polar over the configured one).
    public mutating func setPolar(_ polar: Polar?) { configuration.polar = polar }
}
