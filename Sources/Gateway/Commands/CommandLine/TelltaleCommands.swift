import Engine
import Platform

/// One command of `telltale`: its description (the words, flags and help both builds read), and the work as the Pi
/// build does it, from its words. The desktop's swift-argument-parser commands take their names and help from the
/// same description and call the same Gateway code.
public struct TelltaleCommand: Sendable {
    public let spec: CommandSpec
    /// Parses the words after the command's name (with ``CommandParser``) and does the work; nil for a command only
    /// the desktop build has.
    public let perform: (@Sendable (ArraySlice<String>) throws(CommandError) -> Void)?
}

/// Every command `telltale` has, in the order help lists them: the one table. Adding a command is a row here and its
/// options' description; the desktop's list of its argument-parser commands is checked against it.
public enum TelltaleCommands {
    public static let table: [TelltaleCommand] = [
        TelltaleCommand(spec: RunOptions.spec) { words throws(CommandError) in
            // The gateway's code read from the card a page at a time from the start (no read-ahead, nothing mapped
            // around a page that is needed): what start-up touches is all it keeps resident.
            _ = POSIX.releaseProgramPages()
            let options: RunOptions = try CommandParser.parse(words)
            try RunCommand.run(options, log: StandardErrorLog.make(minimum: options.logLevel))
        },
        TelltaleCommand(spec: CheckConfigOptions.spec) { words throws(CommandError) in
            let options: CheckConfigOptions = try CommandParser.parse(words)
            Console.out(try RunCommand.check(options.file) + "\n")
        },
        TelltaleCommand(spec: ReplayOptions.spec) { words throws(CommandError) in
            let options: ReplayOptions = try CommandParser.parse(words)
            Console.error(try ReplayCommand.perform(options) { POSIX.writeAll(1, $0) } + "\n")
        },
        TelltaleCommand(spec: RecordOptions.spec) { words throws(CommandError) in
            let options: RecordOptions = try CommandParser.parse(words)
            try RunCommand.start(
                RunCommand.recording(options), duration: options.duration, log: StandardErrorLog.make())
        },
        TelltaleCommand(spec: SimulateOptions.spec, perform: nil),
        TelltaleCommand(spec: InspectOptions.spec) { words throws(CommandError) in
            Console.out(try InspectCommand.run(CommandParser.parse(words)))
        },
        TelltaleCommand(spec: N2KOptions.spec) { words throws(CommandError) in
            Console.out(try N2KCommand.run(CommandParser.parse(words)))
        },
        TelltaleCommand(spec: PortsOptions.spec) { words throws(CommandError) in
            let _: PortsOptions = try CommandParser.parse(words)
            Console.out(try PortsCommand.run())
        },
        TelltaleCommand(spec: CalibrateOptions.spec) { words throws(CommandError) in
            // `calibrate sailing` is the learner (its own row, after this one).
            if words.first == "sailing" {
                Console.out(try CalibrationCommand.run(CommandParser.parse(words.dropFirst())))
                return
            }
            guard words.first == "level" else {
                throw CommandError(
                    "say calibrate level or calibrate sailing\nusage: " + CalibrateOptions.spec.usage + "\n       "
                        + CalibrateSailingOptions.spec.usage, status: 64)
            }
            let options: CalibrateOptions = try CommandParser.parse(words.dropFirst())
            Console.out(try IMUCommands.calibrateLevel(options) { Console.error("telltale: " + $0 + "\n") } + "\n")
        },
        TelltaleCommand(spec: CalibrateSailingOptions.spec) { words throws(CommandError) in
            Console.out(try CalibrationCommand.run(CommandParser.parse(words.dropFirst())))
        },
        TelltaleCommand(spec: IMUOptions.spec) { words throws(CommandError) in
            let options: IMUOptions = try CommandParser.parse(words)
            try IMUCommands.sample(options, out: { Console.out($0) }, log: { Console.error("telltale: " + $0 + "\n") })
        },
        TelltaleCommand(spec: RaceOptions.spec) { words throws(CommandError) in
            let options: RaceOptions = try CommandParser.parse(words)
            Console.out(try GatewayClient.send(.race(options.command!), port: options.port) + "\n")
        },
        TelltaleCommand(spec: RouteOptions.spec) { words throws(CommandError) in
            // `route plan` is the router (its own row, after this one); any other word goes to the running gateway.
            if words.first == "plan" {
                Console.out(try RoutePlanCommand.run(CommandParser.parse(words.dropFirst())))
                return
            }
            let options: RouteOptions = try CommandParser.parse(words)
            Console.out(try GatewayClient.send(.route(options.command!), port: options.port) + "\n")
        },
        TelltaleCommand(spec: RoutePlanOptions.spec) { words throws(CommandError) in
            Console.out(try RoutePlanCommand.run(CommandParser.parse(words.dropFirst())))
        },
        TelltaleCommand(spec: AnchorOptions.spec) { words throws(CommandError) in
            let options: AnchorOptions = try CommandParser.parse(words)
            Console.out(try GatewayClient.send(.anchor(options.command!), port: options.port) + "\n")
        },
        TelltaleCommand(spec: AlarmOptions.spec) { words throws(CommandError) in
            let options: AlarmOptions = try CommandParser.parse(words)
            if let kind = options.acknowledge {
                Console.out(try GatewayClient.send(.acknowledge(kind), port: options.port) + "\n")
            } else {
                Console.out(try GatewayClient.alarms(port: options.port))
            }
        },
        TelltaleCommand(spec: AccessOptions.spec) { words throws(CommandError) in
            Console.out(try GatewayClient.access(CommandParser.parse(words)))
        },
        TelltaleCommand(spec: NetworkOptions.spec) { words throws(CommandError) in
            let options: NetworkOptions = try CommandParser.parse(words)
            Console.out(try NetworkCommand.run(options) { Console.error("telltale: " + $0 + "\n") } + "\n")
        },
        TelltaleCommand(spec: AdvertiseOptions.spec) { words throws(CommandError) in
            Console.out(try Advertisement.run(CommandParser.parse(words)))
        },
        TelltaleCommand(spec: BaseMapOptions.spec) { words throws(CommandError) in
            Console.out(try BaseMapCommand.run(CommandParser.parse(words)))
        },
        TelltaleCommand(spec: WeatherOptions.spec) { words throws(CommandError) in
            Console.out(try WeatherCommand.run(CommandParser.parse(words)))
        },
        TelltaleCommand(spec: TideOptions.spec) { words throws(CommandError) in
            Console.out(try TideCommand.run(CommandParser.parse(words)))
        },
        // The shore is its own module above the boat's (`Shore`): the desktop's and a shore server's build only.
        TelltaleCommand(spec: FleetOptions.spec, perform: nil),
        TelltaleCommand(spec: FleetAccountOptions.spec, perform: nil),
        TelltaleCommand(spec: FleetSendOptions.spec, perform: nil),
    ]

    /// Every command's description, in the table's order.
    public static var all: [CommandSpec] { table.map { $0.spec } }

    /// The command a word names (its first word: `calibrate` for `calibrate level`).
    public static func command(_ word: String) -> TelltaleCommand? {
        table.first { $0.spec.name.split(separator: " ").first.map(String.init) == word }
    }

    /// The usage of every command this build has (the Pi build leaves out the desktop's).
    public static func usage(desktop: Bool) -> String {
        let lines = all.filter { desktop || !$0.desktopOnly }.map { "  " + $0.usage }
        return "usage:\n" + lines.joined(separator: "\n") + "\n  telltale --version\n"
            + "`telltale COMMAND --help` says more of each.\n"
    }
}
