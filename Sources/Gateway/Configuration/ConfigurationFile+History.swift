import Engine
import SignalK

/// `[history]`: what the boat's history on the card keeps.
extension ConfigurationFile.Reader {
    /// `[history]`: the boat's history on the card (on by default wherever there is a state file).
    func history(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        guard let history = root["history"] else { return }
        guard let table = history.table else { throw fail("history", "must be a table") }
        try check(
            table, "history", allowed: ["enabled", "keep_mb", "paths", "vessels", "vessel_interval", "vessel_count"])
        if let enabled = try bool(table, "enabled", "history") { config.history.enabled = enabled }
        if let megabytes = try number(table, "keep_mb", "history", range: 1...100_000) {
            config.history.keepMegabytes = megabytes
        }
        if let paths = try strings(table, "paths", "history") {
            guard paths.count <= HistoryBlock.largestNamed else {
                throw fail("history.paths", "at most \(HistoryBlock.largestNamed) paths")
            }
            for path in paths {
                guard !path.isEmpty, path.utf8.count <= HistoryBlock.longestName,
                    path.utf8.allSatisfy({
                        ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || ($0 >= 48 && $0 <= 57) || $0 == 46
                            || $0 == 95 || $0 == 45
                    }),
                    !HistoryBlock.paths.contains(path), !path.hasPrefix("navigation.position"),
                    !path.hasPrefix("navigation.attitude")
                else {
                    throw fail(
                        "history.paths",
                        "\(path.prefix(60)): a Signal K path of a number (letters, digits, dots), not one kept already")
                }
            }
            config.history.paths = paths
        }
        if let vessels = try bool(table, "vessels", "history") { config.history.vessels = vessels }
        if let seconds = try number(table, "vessel_interval", "history", range: 5...600) {
            config.history.vesselInterval = seconds
        }
        if let count = try number(table, "vessel_count", "history", range: 0...500) {
            config.history.vesselCount = Int(count)
        }
    }
}
