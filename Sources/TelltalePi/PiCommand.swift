import Engine
import Gateway
import Platform

/// The Pi build's command line. swift-argument-parser and swift-log cannot be compiled as Embedded Swift, so the
/// words are read here by ``CommandParser`` from the same command descriptions the desktop's commands take their
/// flags from (``TelltaleCommands``), into the same option values, and the work is the same Gateway code.
enum PiCommand {
    /// Runs the command `words` names (`words[0]` is the program) and returns the exit status.
    static func run(_ words: [String]) -> Int32 {
        do {
            try perform(Array(words.dropFirst()))
            return 0
        } catch {
            if error.status == 0 {
                Console.out(error.description)
            } else {
                Console.error(error.description.hasPrefix("usage") ? error.description : "telltale: \(error)\n")
            }
            return error.status
        }
    }

    static func perform(_ words: [String]) throws(CommandError) {
        let rest = words.dropFirst()
        switch words.first {
        case "run":
            let options: RunOptions = try CommandParser.parse(rest)
            try RunCommand.run(options, log: StandardErrorLog.make(minimum: options.logLevel))
        case "check-config":
            let options: CheckConfigOptions = try CommandParser.parse(rest)
            Console.out(try RunCommand.check(options.file) + "\n")
        case "replay":
            let options: ReplayOptions = try CommandParser.parse(rest)
            Console.error(try ReplayCommand.perform(options) { POSIX.writeAll(1, $0) } + "\n")
        case "record":
            let options: RecordOptions = try CommandParser.parse(rest)
            try RunCommand.start(
                RunCommand.recording(options), duration: options.duration, log: StandardErrorLog.make())
        case "inspect":
            Console.out(try InspectCommand.run(CommandParser.parse(rest)))
        case "ports":
            let _: PortsOptions = try CommandParser.parse(rest)
            Console.out(try PortsCommand.run())
        case "imu":
            let options: IMUOptions = try CommandParser.parse(rest)
            try IMUCommands.sample(options, out: { Console.out($0) }, log: { Console.error("telltale: " + $0 + "\n") })
        case "calibrate":
            guard rest.first == "level" else {
                throw CommandError("say calibrate level\nusage: " + CalibrateOptions.spec.usage, status: 64)
            }
            let options: CalibrateOptions = try CommandParser.parse(rest.dropFirst())
            Console.out(try IMUCommands.calibrateLevel(options) { Console.error("telltale: " + $0 + "\n") } + "\n")
        case "race":
            let options: RaceOptions = try CommandParser.parse(rest)
            Console.out(try GatewayClient.send(.race(options.command!), port: options.port) + "\n")
        case "route":
            let options: RouteOptions = try CommandParser.parse(rest)
            Console.out(try GatewayClient.send(.route(options.command!), port: options.port) + "\n")
        case "anchor":
            let options: AnchorOptions = try CommandParser.parse(rest)
            Console.out(try GatewayClient.send(.anchor(options.command!), port: options.port) + "\n")
        case "alarm":
            let options: AlarmOptions = try CommandParser.parse(rest)
            if let kind = options.acknowledge {
                Console.out(try GatewayClient.send(.acknowledge(kind), port: options.port) + "\n")
            } else {
                Console.out(try GatewayClient.alarms(port: options.port))
            }
        case "access":
            Console.out(try GatewayClient.access(CommandParser.parse(rest)))
        case "network":
            let options: NetworkOptions = try CommandParser.parse(rest)
            Console.out(try NetworkCommand.run(options) { Console.error("telltale: " + $0 + "\n") } + "\n")
        case "advertise":
            Console.out(try Advertisement.run(CommandParser.parse(rest)))
        case "fleet":
            let options: FleetOptions = try CommandParser.parse(rest)
            try FleetCommand.run(options, log: StandardErrorLog.make())
        case "weather":
            Console.out(try WeatherCommand.run(CommandParser.parse(rest)))
        case "--version", "version":
            Console.out("telltale \(TelltaleVersion.string)\n")
        case "help", "--help", "-h", nil:
            Console.out(TelltaleCommands.usage(desktop: false))
        case let other?:
            throw CommandError("unknown command \(other)\n" + TelltaleCommands.usage(desktop: false), status: 64)
        }
    }
}
