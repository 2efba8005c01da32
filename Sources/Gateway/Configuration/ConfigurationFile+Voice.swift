import Engine
import Marine

/// `[voice]`: what is said aloud, and how.
extension ConfigurationFile.Reader {
    func voice(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        if let voice = root["voice"] {
            guard let table = voice.table else { throw fail("voice", "must be a table") }
            try check(table, "voice", allowed: ["enabled", "command", "arguments", "device"])
            var settings = VoiceConfiguration()
            if let command = try string(table, "command", "voice") {
                guard !command.isEmpty else { throw fail("voice.command", "must not be empty") }
                settings.command = command
            }
            if let arguments = try strings(table, "arguments", "voice") { settings.arguments = arguments }
            settings.device = try string(table, "device", "voice")
            config.voice = try bool(table, "enabled", "voice") == false ? nil : settings
        }
    }
}

extension ConfigurationFile.Reader {
    /// `[history]`: the boat's history on the card (on by default wherever there is a state file).
    func history(_ root: TOMLTable, _ config: inout GatewayConfiguration) throws(ConfigurationFile.Error) {
        guard let history = root["history"] else { return }
        guard let table = history.table else { throw fail("history", "must be a table") }
        try check(table, "history", allowed: ["enabled", "keep_mb"])
        if let enabled = try bool(table, "enabled", "history") { config.history.enabled = enabled }
        if let megabytes = try number(table, "keep_mb", "history", range: 1...100_000) {
            config.history.keepMegabytes = megabytes
        }
    }
}
