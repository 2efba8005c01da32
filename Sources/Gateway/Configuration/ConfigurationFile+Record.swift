import Platform

/// `[record]`: every input sentence kept on the card, rotated by size and age.
extension ConfigurationFile.Reader {
    func record(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error) {
        guard let section = root["record"] else { return }
        guard let table = section.table else { throw fail("record", "must be a table") }
        try check(table, "record", allowed: ["directory", "rotate_size_mb", "rotate_minutes"])
        guard let directory = try string(table, "directory", "record") else {
            throw fail("record", "needs a directory")
        }
        var settings = Recorder.Settings(
            directory: directory.hasPrefix("/") ? directory : base + "/" + directory)
        if let value = try number(table, "rotate_size_mb", "record", range: 1...10_000) {
            settings.rotateBytes = ByteSize.of(megabytes: value)
        }
        if let value = try number(table, "rotate_minutes", "record", range: 1...10_080) {
            settings.rotateSeconds = value * 60
        }
        config.record = settings
    }
}
