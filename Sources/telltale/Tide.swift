import ArgumentParser
import Gateway
import Platform

/// `telltale tide STATION` and `telltale tide --near LAT,LON`.
struct Tide: SpecCommand {
    static let configuration = CommandConfiguration(TideOptions.spec)

    @Argument(help: argumentHelp(0)) var station: String?
    @Option(name: .customLong("from"), help: help("from")) var from: String?
    @Option(name: .customLong("hours"), help: help("hours")) var hours: String?
    @Option(name: .customLong("step"), help: help("step")) var step: String?
    @Option(name: .customLong("near"), help: help("near")) var near: String?
    @Option(name: .customLong("current"), help: help("current")) var current: String?
    @Option(name: .customLong("count"), help: help("count")) var count: String?
    @Option(name: .customLong("file"), help: help("file")) var files: [String] = []
    @Option(name: .customLong("config"), help: help("config")) var config: String?
    @Flag(name: .customLong("json"), help: help("json")) var json = false

    var options: TideOptions {
        get throws {
            var options = TideOptions()
            if let station { try options.argument(station) }
            for (flag, value) in [
                ("from", from), ("hours", hours), ("step", step), ("near", near), ("current", current),
                ("count", count),
                ("config", config),
            ] {
                if let value { try options.set(flag, value) }
            }
            for file in files { try options.set("file", file) }
            if json { try options.set("json", nil) }
            try options.validate()
            return options
        }
    }

    func run(_ options: TideOptions) throws(CommandError) { Console.out(try TideCommand.run(options)) }
}
