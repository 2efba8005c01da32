import ArgumentParser
import Gateway
import Platform

/// `telltale weather import GRIB...` and `telltale weather show GRID...`.
struct Weather: SpecCommand {
    static let configuration = CommandConfiguration(WeatherOptions.spec)

    @Argument(help: argumentHelp(0)) var action: String
    @Argument(help: argumentHelp(1)) var files: [String] = []
    @Option(name: .customLong("into"), help: help("into")) var into: String?
    @Option(name: .customLong("config"), help: help("config")) var config: String?
    @Option(name: .customLong("name"), help: help("name")) var name: String?
    @Option(name: .customLong("at"), help: help("at")) var at: String?
    @Option(name: .customLong("time"), help: help("time")) var time: String?
    @Option(name: .customLong("hours"), help: help("hours")) var hours: String?
    @Flag(name: .customLong("json"), help: help("json")) var json = false

    var options: WeatherOptions {
        get throws {
            var options = WeatherOptions()
            try options.argument(action)
            for file in files { try options.argument(file) }
            for (flag, value) in [
                ("into", into), ("config", config), ("name", name), ("at", at), ("time", time),
                ("hours", hours),
            ] {
                if let value { try options.set(flag, value) }
            }
            if json { try options.set("json", nil) }
            try options.validate()
            return options
        }
    }

    func run(_ options: WeatherOptions) throws(CommandError) { Console.out(try WeatherCommand.run(options)) }
}
