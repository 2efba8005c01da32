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
            Calibrate.self, IMUCommand.self, Race.self, Alarm.self,
        ]
    )
}
