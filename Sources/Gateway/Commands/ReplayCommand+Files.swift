import Marine

/// The files a replay refuses where the gateway would carry on without them: at a desk the sailor can mend them, and
/// a replay without its polar or calibration would print numbers that look right and are not. Status 66, as for a
/// log that cannot be read; the same whether the replay writes to standard output or to the configuration's outputs.
extension ReplayCommand {
    /// A polar the configuration names and cannot be read, or its calibration when `--calibration` does not replace it.
    static func refusal(_ options: ReplayOptions, of file: GatewayConfiguration) -> CommandError? {
        let calibration = options.calibration == nil ? file.calibrationUnreadable : nil
        guard let problem = file.polarUnreadable ?? calibration else { return nil }
        return CommandError("\(options.config ?? ""): \(problem)", status: 66)
    }

    /// The calibration `--calibration` names, or nil when it names none.
    static func calibration(_ options: ReplayOptions) throws(CommandError) -> SailingCalibration? {
        guard let path = options.calibration else { return nil }
        do { return try CalibrationFile.load(path) } catch {
            throw CommandError("--calibration \(path): \(error)", status: 66)
        }
    }
}
