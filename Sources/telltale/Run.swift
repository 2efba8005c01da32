import ArgumentParser
import Gateway
import Platform

/// `telltale run`: the gateway.
struct Run: SpecCommand {
    static let configuration = CommandConfiguration(RunOptions.spec)

    @Option(name: .customLong("config"), help: help("config")) var config: String?
    @Option(name: .customLong("input"), help: help("input")) var inputs: [String] = []
    @Option(name: .customLong("output"), help: help("output")) var outputs: [String] = []
    @Option(name: .customLong("imu"), help: help("imu")) var imu: String?
    @Option(name: .customLong("duration"), help: help("duration")) var duration: Double?
    @Option(name: .customLong("log-level"), help: help("log-level")) var logLevel = "info"

    var options: RunOptions {
        get throws {
            var options = RunOptions()
            options.config = config
            options.inputs = inputs
            options.outputs = outputs
            options.imu = imu
            options.duration = duration
            try options.set("log-level", logLevel)
            return options
        }
    }

    func run(_ options: RunOptions) throws(CommandError) {
        try RunCommand.run(options, log: GatewayLogger.make(minimum: options.logLevel))
    }
}
