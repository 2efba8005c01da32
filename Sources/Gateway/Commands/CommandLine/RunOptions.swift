/// What `telltale run` is told on its command line.
public struct RunOptions: CommandOptions {
    public var config: String?
    public var inputs: [String] = []
    public var outputs: [String] = []
    public var imu: String?
    public var duration: Double?
    /// The least level logged: debug, info (the default), notice, warning, error.
    public var logLevel = LogEvent.Level.info

    public init() {}

    public static let spec = CommandSpec(
        "run", abstract: "Run the gateway: inputs through the engine to the outputs, until SIGTERM or SIGINT.",
        discussion: """
            With --config the TOML file says everything (docs/configuration.md); --input and --output add to it. \
            With only flags: an input such as file:///log.nmea and an output such as tcp://0.0.0.0:10110.
            """,
        flags: [
            .option("config", "FILE", "A configuration file (TOML).", example: "boat.toml"),
            .option(
                "input", "URL",
                "An input (repeatable): file:///x.nmea, tcp://host:port, udp://:10110, "
                    + "serial:///dev/ttyUSB0?baud=4800, gpsd://localhost:2947.", example: "tcp://127.0.0.1:10110",
                repeats: true),
            .option(
                "output", "URL",
                "An output (repeatable): tcp://0.0.0.0:10110, udp://host:port, serial:///dev/ttyAMA0, "
                    + "stdout:.", example: "tcp://0.0.0.0:10110", repeats: true),
            .option(
                "imu", "URL",
                "An IMU: i2c:///dev/i2c-1?address=0x68&chip=icm20948, iio:///sys/bus/iio/devices/"
                    + "iio:device0, or csv:///path.csv played in real time.", example: "csv:///tmp/imu.csv"),
            .option("duration", "SECONDS", "Stop after this many seconds (tests and benchmarks).", example: "30"),
            .option(
                "log-level", "LEVEL", "The least level logged: debug, info, notice, warning, error.", example: "debug"),
        ])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) {
        let text = CommandParser.text(value)
        switch flag {
        case "config": config = text
        case "input": inputs.append(text)
        case "output": outputs.append(text)
        case "imu": imu = text
        case "duration": duration = try CommandParser.number(flag, value)
        case "log-level":
            guard let level = LogEvent.Level.named(text) else {
                throw CommandError("--log-level \(text): one of debug, info, notice, warning, error", status: 64)
            }
            logLevel = level
        default: throw .unhandled(flag)
        }
    }

    public func validate() throws(CommandError) {
        if let duration, duration < 0 { throw CommandError("--duration must not be negative", status: 64) }
    }
}

/// What `telltale check-config` is told: the file.
public struct CheckConfigOptions: CommandOptions {
    public var file = ""

    public init() {}

    public static let spec = CommandSpec(
        "check-config", abstract: "Check a configuration file: every error names the key and its line.",
        discussion: "Exit status: 0, run runs on all of it; 3, run goes without the files named (a route, a polar, a "
            + "start line or a calibration that cannot be read); 1, run refuses it.",
        arguments: [ArgumentSpec("FILE", "The configuration file.", example: "boat.toml")])

    public mutating func set(_ flag: String, _ value: String?) throws(CommandError) { throw .unhandled(flag) }

    public mutating func argument(_ word: String) throws(CommandError) {
        guard file.isEmpty else { throw CommandError("check-config takes one file", status: 64) }
        file = word
    }

    public func validate() throws(CommandError) {
        if file.isEmpty { throw CommandError("check-config needs the file\nusage: \(Self.spec.usage)", status: 64) }
    }
}
