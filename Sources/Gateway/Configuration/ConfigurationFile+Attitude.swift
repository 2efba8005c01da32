import Engine
import Marine

/// `[attitude]`: heel and pitch as sent, and the attitude filter's gains.
extension ConfigurationFile.Reader {
    func attitude(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        guard let section = root["attitude"] else { return }
        guard let table = section.table else { throw fail("attitude", "must be a table") }
        try check(table, "attitude", allowed: ["decimals", "gain", "bias_gain"])
        if let value = try number(table, "decimals", "attitude", range: 0...3) {
            config.engine.attitudeDecimals = Int(value)
        }
        if let value = try number(table, "gain", "attitude", range: 0.001...5) {
            config.engine.attitude.gain = value
        }
        if let value = try number(table, "bias_gain", "attitude", range: 0...1) {
            config.engine.attitude.biasGain = value
        }
    }
}
