import Engine
import Marine
import Platform

/// `[calibration]`: the file of the calibration learnt from sailing, read and applied to the wind and the log (none
/// there: no correction). A file that cannot be read, or says what cannot be true, is not applied and its reason kept
/// (`calibrationUnreadable`): the gateway carries on uncalibrated and says why, as it does with a route it cannot load,
/// rather than leave the boat without her instruments (until 2026-11-30 it refused to start, and so did the weather's
/// and the tides' imports that read the same configuration). `auto = true` learns from the history every
/// `auto_hours` (6) and applies what it is sure of.
extension ConfigurationFile.Reader {
    func calibration(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String)
        throws(ConfigurationFile.Error)
    {
        guard let section = root["calibration"] else { return }
        guard let table = section.table else { throw fail("calibration", "must be a table") }
        try check(table, "calibration", allowed: ["file", "auto", "auto_hours"])
        if try bool(table, "auto", "calibration") == true {
            let hours = try number(table, "auto_hours", "calibration", range: 0.001...168) ?? 6
            config.calibrationAuto = AutoCalibration(every: hours * 3600)
        }
        guard let file = try string(table, "file", "calibration"), !file.isEmpty else { return }
        let path = file.hasPrefix("/") ? file : base + "/" + file
        config.calibrationFile = path
        // None there yet (learnt on board and not applied, or taken off from the panel): no correction.
        guard POSIX.exists(path) else { return }
        do throws(ConfigurationFile.Error) { config.engine.wind.calibration = try CalibrationFile.load(path) } catch {
            config.calibrationUnreadable = "\(error)"
        }
    }
}
