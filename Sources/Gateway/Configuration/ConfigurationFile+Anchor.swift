import Engine
import Marine

/// `[anchor]`: the anchor watch.
extension ConfigurationFile.Reader {
    /// `[anchor]`: the watch's circle, hold time and margin.
    func anchor(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        if let anchor = root["anchor"] {
            guard let table = anchor.table else { throw fail("anchor", "must be a table") }
            try check(table, "anchor", allowed: ["radius", "hold", "margin"])
            if let metres = try number(table, "radius", "anchor", range: 1...1852) {
                config.engine.anchor.radius = metres
            }
            if let seconds = try number(table, "hold", "anchor", range: 0...600) { config.engine.anchor.hold = seconds }
            if let metres = try number(table, "margin", "anchor", range: 0...200) {
                config.engine.anchor.margin = metres
            }
        }
    }
}
