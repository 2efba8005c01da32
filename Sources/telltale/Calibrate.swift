import ArgumentParser
import Gateway
import Platform

/// `telltale calibrate`: what Telltale measures once on the boat and keeps in its state file.
struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Calibrate the IMU on the boat (level), or the instruments from sailing (sailing).",
        subcommands: [CalibrateLevel.self, CalibrateSailing.self])
}

struct CalibrateLevel: SpecCommand {
    static let configuration = CommandConfiguration(CalibrateOptions.spec, name: "level")

    @Option(name: .customLong("config"), help: help("config")) var config: String?
    @Option(name: .customLong("imu"), help: help("imu")) var imu: String?
    @Option(name: .customLong("seconds"), help: help("seconds")) var seconds = 5.0
    @Option(name: .customLong("state"), help: help("state")) var state: String?

    var options: CalibrateOptions {
        var options = CalibrateOptions()
        options.config = config
        options.imu = imu
        options.seconds = seconds
        options.state = state
        return options
    }

    func run(_ options: CalibrateOptions) throws(CommandError) {
        Console.out(try IMUCommands.calibrateLevel(options) { Console.error("telltale: " + $0 + "\n") } + "\n")
    }
}

struct CalibrateSailing: SpecCommand {
    static let configuration = CommandConfiguration(CalibrateSailingOptions.spec, name: "sailing")

    @Option(name: .customLong("output"), help: help("output")) var output: String?
    @Option(name: .customLong("judge"), help: help("judge")) var judge: String?
    @Option(name: .customLong("history"), help: help("history")) var history: String?
    @Option(name: .customLong("days"), help: help("days")) var days = 30.0
    @Option(name: .customLong("since"), help: help("since")) var since: Double?
    @Option(name: .customLong("applied"), help: help("applied")) var applied: String?
    @Option(name: .customLong("polar"), help: help("polar")) var polar: String?
    @Flag(name: .customLong("json"), help: help("json")) var json = false
    @Argument(help: argumentHelp(0)) var logs: [String] = []

    var options: CalibrateSailingOptions {
        var options = CalibrateSailingOptions()
        options.logs = logs
        options.output = output
        options.json = json
        options.judge = judge
        options.history = history
        options.days = days
        options.since = since
        options.applied = applied
        options.polar = polar
        return options
    }

    func run(_ options: CalibrateSailingOptions) throws(CommandError) {
        Console.out(try CalibrationCommand.run(options))
    }
}
