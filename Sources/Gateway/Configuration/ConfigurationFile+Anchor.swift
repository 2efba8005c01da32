import Engine
import Marine

/// `[anchor]`: the watch's circle, its hold and the boat's bow.
extension ConfigurationFile.Reader {
    /// `[boat]` (where the bow is from the GPS antenna, how high it stands) and `[anchor]` (the watch's circle,
    /// hold time and margin).
    func anchor(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        if let boat = root["boat"] {
            guard let table = boat.table else { throw fail("boat", "must be a table") }
            try check(table, "boat", allowed: ["bow_offset", "bow_height"])
            if let metres = try number(table, "bow_offset", "boat", range: 0...100) { config.engine.bowOffset = metres }
            if let metres = try number(table, "bow_height", "boat", range: 0...20) {
                config.engine.anchor.bowHeight = metres
            }
        }
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
