import ArgumentParser
import Engine
import Gateway
import Logging

/// `telltale run`: the gateway.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the gateway: inputs through the engine to the outputs, until SIGTERM or SIGINT.",
        discussion: """
            With --config the TOML file says everything (see the README's configuration reference); --input and
            --output add to it. With only flags: an input such as file:///log.nmea and an output such as
            tcp://0.0.0.0:10110 (the defaults are documented in the README).
            """
    )

    @Option(help: "A configuration file (TOML).")
    var config: String?

    @Option(name: .customLong("input"), help: "An input URL (repeatable): file:///path.nmea, tcp://host:port, ...")
    var inputs: [String] = []

    @Option(
        name: .customLong("output"), help: "An output URL (repeatable): tcp://0.0.0.0:10110, udp://host:port, stdout:")
    var outputs: [String] = []

    @Option(
        help: """
            An IMU: i2c:///dev/i2c-1?address=0x68&chip=icm20948, iio:///sys/bus/iio/devices/iio:device0, or \
            csv:///path.csv (time_s,ax,ay,az,gx,gy,gz, body frame) played in real time.
            """)
    var imu: String?

    @Option(help: "Stop after this many seconds (for tests and benchmarks).")
    var duration: Double?

    @Option(help: "The least level logged: debug, info, notice, warning, error.")
    var logLevel = "info"

    func validate() throws {
        guard Gateway.LogEvent.Level.named(logLevel) != nil else {
            throw ValidationError("--log-level \(logLevel): one of debug, info, notice, warning, error")
        }
    }

    func run() throws {
        var options = RunOptions()
        options.config = config
        options.inputs = inputs
        options.outputs = outputs
        options.imu = imu
        options.duration = duration
        options.logLevel = Gateway.LogEvent.Level.named(logLevel) ?? .info
        do {
            try Runtime.start(try RunCommand.configuration(options), duration: duration, logLevel: options.logLevel)
        } catch {
            Console.error("telltale: \(error)\n")
            throw ExitCode.failure
        }
    }
}

/// `telltale check-config`: validate a configuration file without running.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config", abstract: "Check a configuration file: every error names the key and its line.")

    @Argument(help: "The configuration file.")
    var file: String

    func run() throws {
        do {
            Console.out(try RunCommand.check(file) + "\n")
        } catch {
            Console.error("\(error)\n")
            throw ExitCode.failure
        }
    }
}

extension Runtime {
    /// Installs the stop signals, opens every input and output of `configuration` (an error ends the command
    /// with status 1) and runs until stopped or `duration` seconds pass; what `run` and `record` share.
    static func start(
        _ configuration: GatewayConfiguration, duration: Double?, logLevel: Gateway.LogEvent.Level = .info
    ) throws {
        do {
            try RunCommand.start(configuration, duration: duration, log: GatewayLogger.make(minimum: logLevel))
        } catch {
            Console.error("telltale: \(error)\n")
            throw ExitCode.failure
        }
    }
}
