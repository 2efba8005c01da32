import ArgumentParser
import Gateway

@main
struct Telltale: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "telltale",
        abstract: "An NMEA 0183 instrument gateway for sailing boats.",
        version: "telltale \(TelltaleVersion.string)",
        subcommands: [
            Run.self, CheckConfig.self, Replay.self, Record.self, Simulate.self, Inspect.self, Ports.self,
            Calibrate.self, IMUCommand.self, Race.self, Route.self, Anchor.self, Alarm.self, Access.self, Network.self,
            Advertise.self, Weather.self, Fleet.self,
        ]
    )

    /// Each command of the one description (``TelltaleCommands``), by its name: what the test that parses every
    /// flag through both builds walks.
    static let commands: [String: any SpecCommand.Type] = [
        "run": Run.self, "check-config": CheckConfig.self, "replay": Replay.self, "record": Record.self,
        "simulate": Simulate.self, "inspect": Inspect.self, "ports": Ports.self, "calibrate level": CalibrateLevel.self,
        "imu": IMUCommand.self, "race": Race.self, "route": Route.self, "anchor": Anchor.self, "alarm": Alarm.self,
        "access": Access.self,
        "network": Network.self,
        "advertise": Advertise.self,
        "weather": Weather.self, "fleet": Fleet.self,
    ]
}
