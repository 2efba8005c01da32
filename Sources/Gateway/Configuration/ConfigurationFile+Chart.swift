import Engine
import Marine

/// `[chart]`: the charts folder, the base map, the online layers.
extension ConfigurationFile.Reader {
    /// `[chart]`: the hours of track kept, the charts folder, the online layers (an empty string switches one off).
    func chart(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error) {
        guard let chart = root["chart"] else { return }
        guard let table = chart.table else { throw fail("chart", "must be a table") }
        try check(table, "chart", allowed: ["track_hours", "charts", "base_layer", "seamarks", "basemap"])
        if let folder = try string(table, "basemap", "chart") {
            config.chart.baseMap = folder.isEmpty ? "" : folder.hasPrefix("/") ? folder : base + "/" + folder
        }
        if let hours = try number(table, "track_hours", "chart", range: 0.5...168) { config.engine.trackHours = hours }
        if let folder = try string(table, "charts", "chart") {
            config.chart.folder = folder.isEmpty ? nil : folder.hasPrefix("/") ? folder : base + "/" + folder
        }
        func layer(_ key: String) throws(ConfigurationFile.Error) -> String?? {
            guard let url = try string(table, key, "chart") else { return .none }
            // By bytes: String's contains(String) is not in Embedded Swift's library.
            let bytes = Array(url.utf8)
            let zoom = Array("{z}".utf8)
            let hasZoom =
                bytes.count >= 3 && (0...(bytes.count - 3)).contains { bytes[$0..<($0 + 3)].elementsEqual(zoom) }
            guard url.isEmpty || ((url.hasPrefix("https://") || url.hasPrefix("http://")) && hasZoom) else {
                throw fail("chart." + key, "must be an http(s) URL with {z}, {x} and {y}, or \"\" for none")
            }
            return .some(url.isEmpty ? nil : url)
        }
        if let url = try layer("base_layer") { config.chart.baseLayer = url }
        if let url = try layer("seamarks") { config.chart.seamarks = url }
    }
}
