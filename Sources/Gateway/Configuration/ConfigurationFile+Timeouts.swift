import Engine
import Marine

/// `[timeouts]`: how long each kind of reading is believed without a new one, seconds.
extension ConfigurationFile.Reader {
    func timeouts(_ table: TOMLTable, _ timeouts: inout Timeouts) throws(ConfigurationFile.Error) {
        try numbers(
            table, "timeouts", range: 0.1...86_400, into: &timeouts,
            [
                ("wind", { $0.wind = $1 }), ("heading", { $0.heading = $1 }), ("speed", { $0.speed = $1 }),
                ("position", { $0.position = $1 }), ("attitude", { $0.attitude = $1 }), ("depth", { $0.depth = $1 }),
                ("variation", { $0.variation = $1 }),
            ])
    }
}
