/// `[tides]`: where the harmonics files are and which stations speak for the boat.
extension ConfigurationFile.Reader {
    func tides(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error) {
        guard let tides = root["tides"] else { return }
        guard let table = tides.table else { throw fail("tides", "must be a table") }
        try check(
            table, "tides", allowed: ["enabled", "files", "folder", "station", "tide_radius_nm", "current_radius_nm"])
        func path(_ text: String) -> String { text.hasPrefix("/") ? text : base + "/" + text }
        if let enabled = try bool(table, "enabled", "tides") { config.tides.enabled = enabled }
        if let files = try strings(table, "files", "tides") { config.tides.files = files.map(path) }
        if let folder = try string(table, "folder", "tides"), !folder.isEmpty { config.tides.folder = path(folder) }
        if let station = try string(table, "station", "tides"), !station.isEmpty { config.tides.station = station }
        if let miles = try number(table, "tide_radius_nm", "tides", range: 0.1...500) {
            config.tides.tideRadius = miles * 1852
        }
        if let miles = try number(table, "current_radius_nm", "tides", range: 0.1...50) {
            config.tides.currentRadius = miles * 1852
        }
    }
}
