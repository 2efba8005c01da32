import Engine

/// `[panel]`: how the panel opens on a phone.
extension ConfigurationFile.Reader {
    /// The layout a phone opens on.
    func panel(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        guard let panel = root["panel"] else { return }
        guard let table = panel.table else { throw fail("panel", "must be a table") }
        try check(table, "panel", allowed: ["start"])
        if let start = try string(table, "start", "panel") {
            let names = ["sailing", "racing", "navigation", "motion", "chart", "weather"]
            guard names.contains(start.lowercased()) else {
                throw fail("panel.start", "must be one of " + names.joined(separator: ", "))
            }
            config.chart.panelStart = start.lowercased()
        }
    }
}
