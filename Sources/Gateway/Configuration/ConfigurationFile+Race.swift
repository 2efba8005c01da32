import Engine
import Marine

/// `[race]`: the start sequence, the line, the button.
extension ConfigurationFile.Reader {
    func race(_ root: TOMLTable, _ config: inout GatewayConfiguration, base: String) throws(ConfigurationFile.Error) {
        if let race = root["race"] {
            guard let table = race.table else { throw fail("race", "must be a table") }
            try check(table, "race", allowed: ["sequence", "announce", "bow_offset", "line", "button", "button_chip"])
            if let line = try number(table, "button", "race", range: 0...511) {
                guard line == line.rounded() else { throw fail("race.button", "must be a whole line number") }
                let named = try string(table, "button_chip", "race") ?? "@gpio"
                var chip = named
                if named.hasPrefix("@") {
                    guard
                        let device = board?.devices[String(named.dropFirst())]
                            ?? (named == "@gpio" ? "/dev/gpiochip0" : nil)
                    else { throw fail("race.button_chip", "the board profile has no device \(named.dropFirst())") }
                    chip = device
                }
                config.race.button = (chip, Int(line))
            } else if table["button_chip"] != nil {
                throw fail("race.button_chip", "needs race.button, the line the button is on")
            }
            if let metres = try number(table, "bow_offset", "race", range: 0...100) {
                config.engine.bowOffset = metres
            }
            if let line = try string(table, "line", "race") {
                config.race.line = line.hasPrefix("/") ? line : base + "/" + line
            }
            if let minutes = try numbers(table, "sequence", "race", range: 0...60) {
                config.race.sequenceMinutes = minutes
            }
            if let seconds = try numbers(table, "announce", "race", range: 0...3600) {
                config.race.announceSeconds = seconds
            }
        }
    }
}
