import Engine
import Marine

/// `[boat]`: the boat's own measures.
extension ConfigurationFile.Reader {
    /// Where the bow is from the GPS antenna, and how high it stands; the boat's draft and her depth transducer's
    /// depth (for the water under the keel at low water).
    func boat(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        guard let boat = root["boat"] else { return }
        guard let table = boat.table else { throw fail("boat", "must be a table") }
        try check(table, "boat", allowed: ["bow_offset", "bow_height", "draft", "transducer_depth"])
        if let metres = try number(table, "bow_offset", "boat", range: 0...100) { config.engine.bowOffset = metres }
        if let metres = try number(table, "bow_height", "boat", range: 0...20) {
            config.engine.anchor.bowHeight = metres
        }
        if let metres = try number(table, "draft", "boat", range: 0.1...30) { config.engine.tides.draft = metres }
        if let metres = try number(table, "transducer_depth", "boat", range: 0...10) {
            config.engine.tides.transducerDepth = metres
        }
    }
}
