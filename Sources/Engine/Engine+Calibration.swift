import Marine

/// The calibration learnt from sailing, changed while the engine runs: the crew's "apply" and "undo" on the panel, or
/// the gateway applying what it learnt by itself (`[calibration] auto`). From the next tick on the wind, the log and
/// the heading are corrected by it; nothing else the engine holds changes, and nothing restarts.
extension Engine {
    public mutating func setCalibration(_ calibration: SailingCalibration) {
        configuration.wind.calibration = calibration
        calibrationLimitedSeconds = 0
    }

    /// The calibration the engine applies.
    public var calibration: SailingCalibration { configuration.wind.calibration }

    /// The polar targets and performance come from, changed while the engine runs (the crew choosing the boat's
    /// learnt polar over the configured one).
    public mutating func setPolar(_ polar: Polar?) { configuration.polar = polar }

    /// The calibrated true wind angle held within 12° of the uncalibrated one (#50: "the calibrated true wind angle and
    /// heading never more than 12° from the uncalibrated ones"). Each tick's calibration is already applied only as far
    /// as it keeps that tick's triangle and heading within the bound (``SailingCalibration/share(awa:aws:stw:heading:speedUnit:)``);
    /// damping then averages vectors whose sizes the log's factor changed, and in a light air, with a masthead unit
    /// that reads no wind for a second among seconds of 2 kn (Irene's does), the two averages swing apart by more. So the
    /// same derivation runs without the calibration, and the calibrated angle is turned back to 12° from its own, its
    /// speed kept. Both counted in a notice.
    mutating func holdCalibration(_ forecastWind: (direction: Double, speed: Double)?, at now: Double) {
        guard !configuration.wind.calibration.isIdentity else {
            uncalibrated = nil
            return
        }
        var reference = uncalibrated ?? WindDerivation(damping: configuration.damping)
        let wind = reference.update(
            &inputs, configuration: configuration, calibration: .identity, forecastWind: forecastWind, at: now
        ).trueWind
        uncalibrated = reference
        if let wind, let calibrated = values.trueWind, calibrated.speed > 0, wind.speed > 0 {
            let turn = Angle.difference(from: wind.angle, to: calibrated.angle)
            if abs(turn) > SailingCalibration.largestTurn {
                let bound = turn < 0 ? -SailingCalibration.largestTurn : SailingCalibration.largestTurn
                values.trueWind = RelativeWind(angle: Angle.relative(wind.angle + bound), speed: calibrated.speed)
                values.calibrationHeld = true
            }
        }
        if values.calibrationShare < 1 || values.calibrationHeld {
            calibrationLimitedSeconds += lastTickTime.map { min(max(now - $0, 0), 1) } ?? 0
            notice("calibration: applied only in part where all of it would turn the true wind or heading over 12°")
        }
    }
}
