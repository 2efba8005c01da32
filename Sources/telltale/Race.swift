import ArgumentParser
import Gateway
import Platform

/// `telltale race WORD`: one word of the engine's to the running gateway.
struct WordCommand<Options: WordCommandOptions>: SpecCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(Options.spec) }

    @Argument(help: argumentHelp(0)) var command: String
    @Option(name: .customLong("port"), help: help("port")) var port = 3000

    var options: Options {
        get throws {
            var options = Options()
            try options.argument(command)
            options.port = port
            return options
        }
    }

    func run(_ options: Options) throws(CommandError) {
        guard let command = options.engineCommand else { return }
        Console.out(try GatewayClient.send(command, port: options.port) + "\n")
    }
}

/// `telltale race start|pause|reset|sync|port|starboard`.
typealias Race = WordCommand<RaceOptions>
