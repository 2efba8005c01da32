import ArgumentParser
import Engine
import Gateway
import NMEA
import Platform

/// `telltale replay`: the same engine as `run`, driven by the logs' own clock.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay recorded NMEA logs through the engine: input passed through plus computed sentences.",
        discussion: """
            The clock is each log's own UTC (RMC, GGA, GLL, ZDA, BWC; across midnight), or its tag-block times;
            lines between two times are spread evenly; a log with no time advances at --line-rate. Several logs
            merge on one clock. Output goes to standard output in time order, with CR LF line endings.
            """
    )

    @Flag(help: "As fast as the machine goes (default: real time).")
    var fast = false

    @Option(help: "Replay speed: log seconds per wall-clock second.")
    var speed: Double?

    @Flag(help: "Leave out the input passed through; print only computed sentences.")
    var computedOnly = false

    @Flag(help: "Prefix every line with an NMEA 4.10 tag block \\c:<UNIX milliseconds>*hh\\ of the replay clock.")
    var tagTime = false

    @Option(help: "Compare the output with this golden file; print the first differences and exit 1 when they differ.")
    var expect: String?

    @Option(help: "A GPX route to follow (first <rte>, or the <wpt> list).")
    var route: String?

    @Option(help: "An IMU CSV (time_s,ax,ay,az,gx,gy,gz) merged with the logs on one clock.")
    var imu: String?

    @Option(
        help: """
            A configuration file: its engine settings and route apply; when it names outputs, the logs are played to \
            them through the same runtime as run (at --speed, or 1000x with --fast) instead of standard output.
            """)
    var config: String?

    @Option(
        name: .customLong("signalk"),
        help:
            "Write the replay's Signal K delta stream to this file, one delta a line (what a subscribe=self client gets)."
    )
    var signalK: String?

    @Option(help: "Start the race timer's sequence this many seconds after the log's first sentence.")
    var raceStart: Double?

    @Option(help: "Sentences per second for a log that carries no time.")
    var lineRate = 10.0

    @Option(help: "Engine ticks per second (1-50).")
    var tickRate = 10.0

    @Option(
        name: .customLong("kind"),
        help:
            "A computed sentence to produce (repeatable): \(ComputedKind.allCases.map(\.description).joined(separator: ", ")). Default: the standard set."
    )
    var kinds: [String] = []

    @Argument(help: "NMEA logs to replay (none when --imu names a trace: it has its own clock).")
    var logs: [String] = []

    var options: ReplayOptions {
        var options = ReplayOptions()
        options.logs = logs
        options.speed = fast ? nil : (speed ?? 1)
        options.computedOnly = computedOnly
        options.tagTime = tagTime
        options.route = route
        options.imu = imu
        options.config = config
        options.lineRate = lineRate
        options.tickRate = tickRate
        options.kinds = kinds
        options.signalK = signalK
        options.raceStart = raceStart
        return options
    }

    func validate() throws {
        if fast && speed != nil { throw ValidationError("--fast and --speed exclude each other") }
        do { try options.validate() } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        if let config, let file = try? ConfigurationFile.load(path: config), !file.outputs.isEmpty {
            return try replayToOutputs(file)
        }
        var captured: [UInt8] = []
        let capturing = expect != nil
        do {
            let summary = try ReplayCommand.run(options) { bytes in
                if capturing { captured.append(contentsOf: bytes) } else { POSIX.writeAll(1, bytes) }
            }
            Console.error(summary + "\n")
        } catch {
            Console.error("telltale: \(error)\n")
            throw ExitCode.failure
        }
        if let expect {
            let golden: [UInt8]
            do { golden = try POSIX.readFile(expect) } catch {
                Console.error("telltale: \(error)\n")
                throw ExitCode.failure
            }
            let differences = GoldenComparison.differences(expected: golden, actual: captured)
            guard differences.isEmpty else {
                for difference in differences {
                    Console.error("line \(difference.line):\n  expected: \(difference.expected ?? "(nothing)")\n")
                    Console.error("  actual:   \(difference.actual ?? "(nothing)")\n")
                }
                throw ExitCode.failure
            }
            Console.error("replay: output matches \(expect)\n")
        }
    }
}

extension Replay {
    /// With outputs in the configuration, the logs go to them (a bench rig feeding a chartplotter) through the same
    /// runtime as `run`, played on their own clock at --speed (--fast means as fast as 1000x), until they end.
    func replayToOutputs(_ file: GatewayConfiguration) throws {
        var configuration = file
        configuration.inputs = logs.enumerated().map { index, path in
            var input = InputConfiguration(name: "log\(index + 1)", endpoint: .file(path: path))
            input.speed = fast ? 1000 : (speed ?? 1)
            return input
        }
        if let route { configuration.route = route }
        if let imu {
            guard var parsed = try? IMUConfiguration.parse("csv:" + imu, base: ".") else {
                throw ValidationError("--imu: a CSV file")
            }
            parsed.speed = fast ? 1000 : (speed ?? 1)
            configuration.imu = parsed
        }
        configuration.engine.kinds = configuration.requiredKinds
        StopSignal.install()
        let runtime: Runtime
        do {
            runtime = try Runtime(configuration: configuration, log: StandardErrorLog.make())
        } catch {
            Console.error("telltale: \(error)\n")
            throw ExitCode.failure
        }
        runtime.run(untilInputsEnd: true)
    }
}
