import Engine
import Marine
import SignalK

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
