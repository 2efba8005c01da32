import Engine
import Marine

/// `[weather]`: the GRIB files watched and forecast wind.
extension ConfigurationFile.Reader {
    /// `[weather]`: the GRIB files watched, where their grids live, and forecast wind as the last wind source.
    func weather(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error)
    {
        guard let weather = root["weather"] else { return }
        guard let table = weather.table else { throw fail("weather", "must be a table") }
        try check(table, "weather", allowed: ["grib", "folder", "wind_fallback", "talker", "interval"])
        func path(_ key: String) throws(ConfigurationFile.Error) -> String? {
            guard let text = try string(table, key, "weather"), !text.isEmpty else { return nil }
            return text.hasPrefix("/") ? text : base + "/" + text
        }
        config.weather.grib = try path("grib")
        if let folder = try path("folder") { config.weather.folder = folder }
        if let value = try bool(table, "wind_fallback", "weather") { config.engine.weather.windFallback = value }
        if let talker = try talker(table, "talker", "weather") { config.engine.weather.talker = talker }
        if let seconds = try number(table, "interval", "weather", range: 1...3600) { config.weather.interval = seconds }
    }
}
