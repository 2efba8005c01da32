import Engine
import NMEA

/// `[[input]]`: where sentences come from, and how each is framed.
extension ConfigurationFile.Reader {
    func input(_ table: TOMLTable, _ section: String, base: String, index: Int) throws(ConfigurationFile.Error)
        -> InputConfiguration
    {
        try check(table, section, allowed: ["name", "url", "loop", "speed", "checksum", "max_length"])
        let endpoint = try self.endpoint(table, section, base: base)
        if endpoint == .standardOutput { throw fail(section + ".url", "stdout is an output") }
        var input = InputConfiguration(
            name: try string(table, "name", section) ?? "input\(index + 1)", endpoint: endpoint)
        if let loop = try bool(table, "loop", section) { input.loop = loop }
        if let speed = try number(table, "speed", section, range: 0.01...1000) { input.speed = speed }
        if let checksum = try string(table, "checksum", section) {
            guard checksum == "required" || checksum == "optional" else {
                throw fail(section + ".checksum", "must be \"required\" or \"optional\"")
            }
            input.framing.requiresChecksum = checksum == "required"
        }
        if let length = try number(table, "max_length", section, range: 82...250) {
            input.framing.maximumLength = Int(length)
        }
        return input
    }
}
