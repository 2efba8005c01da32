import Marine

/// `[calibration]`: the file of the calibration learnt from sailing, read and applied to the wind and the log.
extension ConfigurationFile.Reader {
    func calibration(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String)
        throws(ConfigurationFile.Error)
    {
        guard let section = root["calibration"] else { return }
        guard let table = section.table else { throw fail("calibration", "must be a table") }
        try check(table, "calibration", allowed: ["file"])
        guard let file = try string(table, "file", "calibration"), !file.isEmpty else { return }
        let path = file.hasPrefix("/") ? file : base + "/" + file
        config.calibrationFile = path
        config.engine.wind.calibration = try CalibrationFile.load(path)
    }
}
