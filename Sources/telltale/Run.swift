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

    func run() throws {
        var configuration = GatewayConfiguration()
        if let config {
            do {
                configuration = try ConfigurationFile.load(path: config)
            } catch {
                Console.error("telltale: \(config): \(error)\n")
                throw ExitCode.failure
            }
        }
        for (index, url) in inputs.enumerated() {
            do {
                var input = InputConfiguration(name: "flag-input\(index + 1)", endpoint: try Endpoint.parse(url))
                input.loop = false
                configuration.inputs.append(input)
            } catch {
                throw ValidationError("--input \(error)")
            }
        }
        for (index, url) in outputs.enumerated() {
            do {
                configuration.outputs.append(
                    OutputConfiguration(name: "flag-output\(index + 1)", endpoint: try Endpoint.parse(url)))
            } catch {
                throw ValidationError("--output \(error)")
            }
        }
        if let imu {
            do {
                var parsed = try IMUConfiguration.parse(imu, base: ".")
                // The board's axis map still applies to the IMU given on the command line.
                if let axes = configuration.imu?.axes { parsed.axes = axes }
                configuration.imu = parsed
            } catch {
                throw ValidationError("--imu: \(error)")
            }
        }
        if configuration.outputs.isEmpty {
            configuration.outputs.append(OutputConfiguration(name: "stdout", endpoint: .standardOutput))
        }
        configuration.engine.kinds = configuration.requiredKinds
        try Runtime.start(configuration, duration: duration)
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
            let configuration = try ConfigurationFile.load(path: file)
            Console.out(
                "\(file): valid (\(configuration.inputs.count) inputs, \(configuration.outputs.count) outputs"
                    + (configuration.route.map { ", route \($0)" } ?? "")
                    + (configuration.imu.map { ", IMU \($0.endpoint), axes \($0.axes)" } ?? "") + ")\n")
        } catch {
            Console.error("\(file): \(error)\n")
            throw ExitCode.failure
        }
    }
}

extension Runtime {
    /// Installs the stop signals, opens every input and output of `configuration` (an error ends the command
    /// with status 1) and runs until stopped or `duration` seconds pass; what `run` and `record` share.
    static func start(_ configuration: GatewayConfiguration, duration: Double?) throws {
        StopSignal.install()
        let runtime: Runtime
        do {
            runtime = try Runtime(configuration: configuration, log: GatewayLogger.make())
        } catch {
            Console.error("telltale: \(error)\n")
            throw ExitCode.failure
        }
        runtime.run(duration: duration)
    }
}
